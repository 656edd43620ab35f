//! Where a push may go. A subscription's endpoint is a URL a client chose, so the server
//! posts only to `https` on a public address: never into its own network (loopback,
//! private, link-local, unspecified, multicast, nor those written as IPv4-mapped or NAT64
//! IPv6). A name is resolved and every address it gives is checked; the message then goes
//! to the address checked, never to the name resolved again (a name that answers a public
//! address to the check and a private one to the send gains nothing).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// An endpoint checked: its URL and the address to connect to.
#[derive(Debug, Clone)]
pub struct Checked {
    pub url: String,
    pub addr: SocketAddr,
}

/// Whether endpoints on this machine's own addresses, over `http` too, are allowed: only
/// the tests' local receiver (`Config::test_push_receivers`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Reach {
    #[default]
    Public,
    TestsLocal,
}

/// Checks `url` and resolves its host: the address to post to, or why it is refused.
pub async fn check(url: &str, reach: Reach) -> Result<Checked, String> {
    let uri: http::Uri = url
        .parse()
        .map_err(|e| format!("endpoint is not a URL: {e}"))?;
    let default_port = match (uri.scheme_str(), reach) {
        (Some("https"), _) => 443,
        (Some("http"), Reach::TestsLocal) => 80,
        _ => return Err("endpoint must be an https URL".into()),
    };
    let host = uri.host().ok_or("endpoint has no host")?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let port = uri.port_u16().unwrap_or(default_port);
    let addrs: Vec<SocketAddr> = match host.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, port)],
        Err(_) => tokio::net::lookup_host((host, port))
            .await
            .map_err(|e| format!("endpoint's host '{host}' does not resolve: {e}"))?
            .collect(),
    };
    if reach == Reach::Public {
        if let Some(inside) = addrs.iter().find(|a| !is_public(a.ip())) {
            let ip = inside.ip();
            return Err(format!(
                "endpoint's host '{host}' is {ip}, not a public address"
            ));
        }
    }
    let addr = *addrs
        .first()
        .ok_or_else(|| format!("endpoint's host '{host}' has no address"))?;
    Ok(Checked {
        url: url.to_string(),
        addr,
    })
}

/// Whether `ip` is an address of the internet at large.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public_v4(v4);
            }
            let s = v6.segments();
            // NAT64 (64:ff9b::/96) carries an IPv4 address in its last 32 bits.
            if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
                let [a, b] = [s[6].to_be_bytes(), s[7].to_be_bytes()];
                return is_public_v4(Ipv4Addr::new(a[0], a[1], b[0], b[1]));
            }
            !(v6.is_unspecified()
                || v6.is_loopback()
                || v6.is_multicast()
                || s[0] & 0xfe00 == 0xfc00 // unique local, fc00::/7
                || s[0] & 0xffc0 == 0xfe80 // link-local, fe80::/10
                || s[0] & 0xffc0 == 0xfec0 // site-local (deprecated), fec0::/10
                || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
                || s[..6] == [0; 6]) // IPv4-compatible, ::/96
        }
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_multicast()
        || ip.is_broadcast()
        || ip.is_documentation()
        || a == 0 // "this network"
        || (a == 100 && (64..128).contains(&b)) // shared address space (carrier NAT)
        || (a == 198 && (b == 18 || b == 19)) // benchmarking
        || (a == 192 && b == 0 && ip.octets()[2] == 0) // IETF protocol assignments
        || a >= 240) // reserved
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_addresses_of_the_internet_at_large_are_public() {
        for inside in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "100.64.0.1",
            "::1",
            "::",
            "fe80::1",
            "fc00::1",
            "fd12::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
            "::127.0.0.1",
        ] {
            assert!(
                !is_public(inside.parse().unwrap()),
                "{inside} is not public"
            );
        }
        for outside in [
            "1.1.1.1",
            "142.250.74.206",
            "2a00:1450:4001:80b::200e",
            "::ffff:8.8.8.8",
        ] {
            assert!(is_public(outside.parse().unwrap()), "{outside} is public");
        }
    }
}
