//! Game ids and seat tokens: drawn at random, and compared in time that
//! does not depend on where they differ.

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

/// A seat token: 128 random bits in hex.
pub(crate) fn new_token() -> String {
    random_bytes::<16>().iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether two secrets are equal, in time that does not depend on where they differ.
pub(crate) fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
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
}
