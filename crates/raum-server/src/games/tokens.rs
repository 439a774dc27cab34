//! Game ids and seat tokens: drawn at random, kept only as hashes
//! ([`TokenHash`]), and compared in time that does not depend on where
//! they differ.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    if getrandom::fill(&mut b).is_err() {
        // The OS's generator failing is not something to serve games without.
        panic!("no source of randomness for game ids and seat tokens");
    }
    b
}

/// A game id: 12 characters of base 62 (71 bits).
pub(crate) fn new_id() -> String {
    const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    random_bytes::<12>().iter().map(|&b| ALPHABET[b as usize % 62] as char).collect()
}

/// A seat token: 128 random bits in hex. Given to the game's creator once;
/// the server keeps only its [`TokenHash`].
pub(crate) fn new_token() -> String {
    random_bytes::<16>().iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether two secrets are equal, in time that does not depend on where they differ.
pub(crate) fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// How a hashed token begins.
const PREFIX: &str = "sha256:";

/// Whether a stored token is a hash already (`sha256:<64 hex>`), not a
/// token kept in clear by a server from before tokens were hashed.
pub(crate) fn is_hashed(stored: &str) -> bool {
    stored.strip_prefix(PREFIX).is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A seat token as the server keeps it, in the database and in memory:
/// `sha256:<64 hex>` of the token, never the token itself. (Tokens are 128
/// random bits, so a plain hash, unsalted, is as hard to invert as the
/// token is to guess.)
///
/// Read from a stored value with [`TokenHash::stored`] (through serde too),
/// which hashes a token still in clear; made from a token a client presents
/// with [`TokenHash::of`], which always hashes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub(crate) struct TokenHash(String);

impl TokenHash {
    /// The hash of a token (one a client presents, or a new one).
    pub(crate) fn of(token: &str) -> TokenHash {
        let digest = Sha256::digest(token.as_bytes());
        let mut text = String::with_capacity(PREFIX.len() + 64);
        text.push_str(PREFIX);
        for b in digest {
            text.push_str(&format!("{b:02x}"));
        }
        TokenHash(text)
    }

    /// A stored token: kept as it is if hashed, hashed if still in clear.
    pub(crate) fn stored(value: &str) -> TokenHash {
        TokenHash::from(value.to_string())
    }

    /// Whether `presented` hashes to this (compared in constant time).
    pub(crate) fn matches(&self, presented: &TokenHash) -> bool {
        same_secret(&self.0, &presented.0)
    }

    /// As stored: `sha256:<64 hex>`.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<String> for TokenHash {
    /// As [`TokenHash::stored`].
    fn from(value: String) -> TokenHash {
        if is_hashed(&value) { TokenHash(value) } else { TokenHash::of(&value) }
    }
}

impl From<TokenHash> for String {
    fn from(hash: TokenHash) -> String {
        hash.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_tokens_are_random_and_long() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert!(new_id().chars().all(|c| c.is_ascii_alphanumeric()));
    }

    #[test]
    fn a_token_is_kept_as_its_sha256() {
        // SHA-256 of "abc" (FIPS 180-2, appendix B.1).
        let h = TokenHash::of("abc");
        assert_eq!(h.as_str(), "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert!(is_hashed(h.as_str()) && !is_hashed("abc") && !is_hashed("sha256:abc"));
        // A stored hash stays as it is; a token stored in clear is hashed.
        assert_eq!(TokenHash::stored(h.as_str()), h);
        assert_eq!(TokenHash::stored("abc"), h);
        let read: TokenHash = serde_json::from_str("\"abc\"").expect("a string");
        assert_eq!(read, h);
        assert_eq!(serde_json::to_string(&h).expect("json"), format!("\"{}\"", h.as_str()));
        // A presented token is always hashed: knowing the hash opens nothing.
        assert!(h.matches(&TokenHash::of("abc")));
        assert!(!h.matches(&TokenHash::of(h.as_str())));
        assert!(!h.matches(&TokenHash::of("abd")));
    }
}
