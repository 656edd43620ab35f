//! HTTPS and WSS to a server behind a TLS-ending proxy (feature `tls`): the site's name as
//! a browser would ask for it (SNI, `Host`, the certificate's name), reached at a loopback
//! address of the test's, trusting only a root certificate the test was given (Caddy's
//! internal certificate authority), never the system's.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, ServerName};

/// A site served over HTTPS: its name, where it is reached, and the roots trusted.
#[derive(Clone)]
pub struct Https {
    /// The site's name (`games.example.org`).
    pub name: String,
    /// Where the proxy listens (`[::1]:PORT`), whatever the name would resolve to.
    pub addr: SocketAddr,
    config: Arc<ClientConfig>,
}

impl std::fmt::Debug for Https {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "https://{} at {}", self.name, self.addr)
    }
}

impl Https {
    /// The site `name` at `addr`, its certificate checked against the root in the PEM file
    /// `root` alone.
    pub fn new(name: &str, addr: SocketAddr, root: &Path) -> Https {
        let cert = CertificateDer::from_pem_file(root)
            .unwrap_or_else(|e| panic!("a PEM certificate in {}: {e}", root.display()));
        let mut roots = RootCertStore::empty();
        roots.add(cert).expect("a usable root certificate");
        // ring, the one provider compiled in (as for ureq's own `tls`).
        let config = ClientConfig::builder()
            .with_root_certificates(roots)
            .with_no_client_auth();
        Https {
            name: name.to_string(),
            addr,
            config: Arc::new(config),
        }
    }

    /// `https://NAME:PORT`, the origin of the site's pages.
    pub fn origin(&self) -> String {
        format!("https://{}:{}", self.name, self.addr.port())
    }

    /// A ureq agent that reaches the site's name at [`Https::addr`] and trusts only the
    /// root, every request limited to 30 s.
    pub fn agent(&self) -> ureq::Agent {
        let addr = self.addr;
        ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(30))
            .tls_config(self.config.clone())
            .resolver(move |_: &str| Ok(vec![addr]))
            .build()
    }

    /// A TLS connection to the site (for a WebSocket), with a read timeout of 20 s.
    pub fn connect(&self) -> TlsStream {
        let tcp = TcpStream::connect(self.addr)
            .unwrap_or_else(|e| panic!("connecting to {}: {e}", self.addr));
        tcp.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let name = ServerName::try_from(self.name.clone()).expect("a server name");
        let connection = ClientConnection::new(self.config.clone(), name).unwrap();
        TlsStream(Box::new(StreamOwned::new(connection, tcp)))
    }
}

/// A TLS connection (the handshake runs with the first read or write).
pub struct TlsStream(Box<StreamOwned<ClientConnection, TcpStream>>);

impl Read for TlsStream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
}

impl Write for TlsStream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}
