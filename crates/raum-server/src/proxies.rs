//! Who a request comes from behind a balancer. Behind haproxy or nginx every
//! connection comes from the balancer's address, so the per-address limits
//! would count the whole site as one client. A server told which addresses
//! are its proxies (`raum serve --trusted-proxy`) takes the client's address
//! from `X-Forwarded-For` on their connections, and only on theirs: from
//! anyone else the header is ignored, since a client can write anything in it.
//!
//! Each proxy appends the address it was connected from, so the list is read
//! from the right: the first address that is not a trusted proxy is the
//! client. Whatever a client wrote itself lies to the left of that and is
//! never read. A list of proxies only (the client is on a proxy's machine)
//! gives its first address; a header that is missing, or whose last entry
//! does not read, gives the proxy's own address, so such requests share one
//! allowance. A trusted network must hold proxies only: a client inside it
//! could name any address.

use crate::engine_pool::Client;
use crate::limits::client_of;
use axum::http::HeaderMap;
use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;

/// An address, or a network written `address/bits` (`10.0.0.0/8`, `fd00::/8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Network {
    addr: IpAddr,
    bits: u8,
}

impl Network {
    /// Whether `ip` lies in this network (an IPv4 address mapped into IPv6
    /// counts as the IPv4 address).
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, plain(ip)) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => same_prefix(&net.octets(), &ip.octets(), self.bits),
            (IpAddr::V6(net), IpAddr::V6(ip)) => same_prefix(&net.octets(), &ip.octets(), self.bits),
            _ => false,
        }
    }
}

/// `ip`, an IPv4 address mapped into IPv6 written as IPv4.
fn plain(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// Whether the first `bits` bits of `a` and `b` agree.
fn same_prefix(a: &[u8], b: &[u8], bits: u8) -> bool {
    let (whole, rest) = (usize::from(bits / 8), bits % 8);
    if a[..whole] != b[..whole] {
        return false;
    }
    rest == 0 || (a[whole] ^ b[whole]) >> (8 - rest) == 0
}

impl FromStr for Network {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (addr, bits) = match s.split_once('/') {
            Some((addr, bits)) => (addr, Some(bits)),
            None => (s, None),
        };
        let addr = plain(
            addr.parse::<IpAddr>()
                .map_err(|_| format!("'{addr}' is not an IPv4 or IPv6 address (as 10.0.0.1 or fd00::1)"))?,
        );
        let most = if addr.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            None => most,
            Some(b) => b
                .parse::<u8>()
                .ok()
                .filter(|b| *b <= most)
                .ok_or_else(|| format!("'/{b}' is not a prefix length from 0 to {most}"))?,
        };
        Ok(Network { addr, bits })
    }
}

/// The client a request that came through a trusted proxy is from (a
/// request extension, read by the API's `Peer`).
#[derive(Clone, Debug)]
pub struct Forwarded(pub Client);

/// Whether `peer` is one of the `trusted` proxies.
pub fn is_proxy(peer: IpAddr, trusted: &[Network]) -> bool {
    trusted.iter().any(|n| n.contains(peer))
}

/// The client a request from `peer` with `headers` comes from, as the
/// per-address limits count it (module doc).
pub fn client(peer: SocketAddr, headers: &HeaderMap, trusted: &[Network]) -> Client {
    if !is_proxy(peer.ip(), trusted) {
        return client_of(peer);
    }
    // From the last header line back, each line's hops from the right; a line or hop that
    // does not read ends the walk (a client's own line, left of the proxy's, may hold anything).
    let mut client = None;
    'lines: for value in headers.get_all("x-forwarded-for").iter().rev() {
        let Ok(text) = value.to_str() else { break };
        for hop in text.split(',').rev() {
            let Some(ip) = address(hop.trim()) else { break 'lines };
            client = Some(ip);
            if !is_proxy(ip, trusted) {
                break 'lines;
            }
        }
    }
    client.map_or_else(|| client_of(peer), |ip| client_of(SocketAddr::new(ip, 0)))
}

/// An address as proxies write it: `192.0.2.7`, `2001:db8::7`, and with a
/// port `192.0.2.7:4711` or `[2001:db8::7]:4711`.
fn address(hop: &str) -> Option<IpAddr> {
    hop.parse::<IpAddr>().ok().or_else(|| hop.parse::<SocketAddr>().ok().map(|s| s.ip()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn nets(list: &[&str]) -> Vec<Network> {
        list.iter().map(|n| n.parse().expect("a network")).collect()
    }

    fn from(peer: &str, forwarded: &[&str], trusted: &[&str]) -> String {
        let mut headers = HeaderMap::new();
        for f in forwarded {
            headers.append("x-forwarded-for", HeaderValue::from_str(f).expect("a header"));
        }
        client(peer.parse().expect("a peer"), &headers, &nets(trusted)).to_string()
    }

    #[test]
    fn networks_read_and_hold_what_they_should() {
        let ten = "10.0.0.0/8".parse::<Network>().expect("reads");
        assert!(ten.contains("10.200.3.4".parse().expect("ip")));
        assert!(ten.contains("::ffff:10.1.1.1".parse().expect("ip")), "mapped IPv4");
        assert!(!ten.contains("11.0.0.1".parse().expect("ip")));
        let odd = "192.168.4.0/22".parse::<Network>().expect("reads");
        assert!(
            odd.contains("192.168.7.255".parse().expect("ip")) && !odd.contains("192.168.8.0".parse().expect("ip"))
        );
        let one = "127.0.0.1".parse::<Network>().expect("reads");
        assert!(one.contains("127.0.0.1".parse().expect("ip")) && !one.contains("127.0.0.2".parse().expect("ip")));
        let six = "fd00::/8".parse::<Network>().expect("reads");
        assert!(six.contains("fd12::1".parse().expect("ip")) && !six.contains("fe80::1".parse().expect("ip")));
        assert!("0.0.0.0/0".parse::<Network>().expect("reads").contains("8.8.8.8".parse().expect("ip")));
        assert!(!six.contains("10.0.0.1".parse().expect("ip")), "families differ");
        for (bad, says) in [
            ("10.0.0.0/33", "'/33' is not a prefix length from 0 to 32"),
            ("fd00::/129", "'/129' is not a prefix length from 0 to 128"),
            ("10.0.0/8", "'10.0.0' is not an IPv4 or IPv6 address"),
            ("localhost", "'localhost' is not"),
            ("10.0.0.0/x", "'/x' is not a prefix length"),
        ] {
            let e = bad.parse::<Network>().expect_err(bad);
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn the_client_is_the_first_untrusted_address_from_the_right() {
        let lb = ["127.0.0.1", "10.0.0.0/8"];
        // Not from a proxy: the header is the client's own words, ignored.
        assert_eq!(from("203.0.113.9:5000", &["198.51.100.1"], &lb), "203.0.113.9");
        // From the balancer: the address it appended.
        assert_eq!(from("127.0.0.1:5000", &["198.51.100.1"], &lb), "198.51.100.1");
        // A client's forged entry lies left of the balancer's and is not read.
        assert_eq!(from("127.0.0.1:5000", &["6.6.6.6, 198.51.100.1"], &lb), "198.51.100.1");
        // Two proxies: the outer one's entry is skipped as trusted.
        assert_eq!(from("127.0.0.1:5000", &["198.51.100.1, 10.0.0.5"], &lb), "198.51.100.1");
        assert_eq!(from("127.0.0.1:5000", &["198.51.100.1", "10.0.0.5"], &lb), "198.51.100.1", "two header lines");
        // A client on a proxy's machine.
        assert_eq!(from("127.0.0.1:5000", &["127.0.0.1"], &lb), "127.0.0.1");
        assert_eq!(from("127.0.0.1:5000", &["10.0.0.7, 127.0.0.1"], &lb), "10.0.0.7");
        // No header, or one that does not read: the proxy's own allowance.
        assert_eq!(from("127.0.0.1:5000", &[], &lb), "127.0.0.1");
        assert_eq!(from("127.0.0.1:5000", &["not an address"], &lb), "127.0.0.1");
        // Unreadable left of a good entry: the good one.
        assert_eq!(from("127.0.0.1:5000", &["junk, 198.51.100.1"], &lb), "198.51.100.1");
        // A client's own header line that is not even text does not hide the proxy's line.
        let mut headers = HeaderMap::new();
        headers.append("x-forwarded-for", HeaderValue::from_bytes(b"\xff\xfe").expect("opaque bytes"));
        headers.append("x-forwarded-for", HeaderValue::from_static("198.51.100.1"));
        let peer = "127.0.0.1:5000".parse().expect("a peer");
        assert_eq!(&*client(peer, &headers, &nets(&lb)), "198.51.100.1");
        // Ports, IPv6 (counted by its /64) and the same without any proxy trusted.
        assert_eq!(from("127.0.0.1:5000", &["198.51.100.1:4711"], &lb), "198.51.100.1");
        assert_eq!(from("127.0.0.1:5000", &["[2001:db8:1:2::7]:4711"], &lb), "2001:db8:1:2::/64");
        assert_eq!(from("127.0.0.1:5000", &["198.51.100.1"], &[]), "127.0.0.1");
    }
}
