//! A real SMTP server for the tests of mail: Debian's `python3-aiosmtpd` on a free loopback
//! port, keeping each message it receives in a maildir, and the mailed links' codes read back
//! from it (the server's mail in quoted-printable, undone).

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// An SMTP server on a free loopback port, keeping what it receives in a maildir, for a site
/// whose mail links to `site`; killed when dropped.
pub struct SmtpServer {
    child: Child,
    port: u16,
    maildir: PathBuf,
    site: String,
}

impl SmtpServer {
    /// Starts the server, its maildir in `dir`; the mail's links begin with `site`
    /// (`https://l.example.org`, the server's `--site-url`).
    pub fn start(dir: &Path, site: &str) -> SmtpServer {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let maildir = dir.join("maildir");
        // Debian's Python, which has python3-aiosmtpd (not a Python of the user's own).
        let child = Command::new("/usr/bin/python3")
            .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}")])
            .args(["-c", "aiosmtpd.handlers.Mailbox"])
            .arg(&maildir)
            .stdout(Stdio::null())
            .spawn()
            .expect("starting /usr/bin/python3 -m aiosmtpd: apt-get install python3-aiosmtpd");
        let mut smtp = SmtpServer {
            child,
            port,
            maildir,
            site: site.trim_end_matches('/').to_string(),
        };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = smtp.child.try_wait() {
                panic!("aiosmtpd ended ({status}): apt-get install python3-aiosmtpd");
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "aiosmtpd never listened"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        smtp
    }

    /// The loopback port it listens on (`smtp://127.0.0.1:PORT`).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The server's configuration of mail: this SMTP server, unencrypted on loopback, and
    /// the site's links.
    #[cfg(feature = "server")]
    pub fn config(&self) -> lgame_web::MailConfig {
        lgame_web::MailConfig {
            smtp: format!("smtp://127.0.0.1:{}", self.port),
            password: None,
            from: None,
            site_url: self.site.clone(),
        }
    }

    /// Every message received so far, as its text.
    pub fn messages(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.maildir.join("new")) else {
            return Vec::new();
        };
        let mut texts: Vec<_> = entries
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect();
        texts.sort();
        texts
    }

    /// The start of a mailed link to the page's `view`, before its code.
    fn link(&self, view: &str) -> String {
        format!("{}/#/{view}?code=", self.site)
    }

    /// The messages to `to` whose link opens `view` (`reset`, `confirm-email`).
    pub fn to(&self, to: &str, view: &str) -> Vec<String> {
        let link = self.link(view);
        self.messages()
            .into_iter()
            .filter(|m| m.contains(&format!("To: {to}")) && unfolded(m).contains(&link))
            .collect()
    }

    /// Waits for the `n`th message to `to` with a link to `view`: the link, as mailed.
    pub fn link_in(&self, to: &str, view: &str, n: usize) -> String {
        let link = self.link(view);
        let code: String = {
            let started = Instant::now();
            loop {
                if let Some(message) = self.to(to, view).get(n - 1) {
                    let text = unfolded(message);
                    let at = text.find(&link).unwrap() + link.len();
                    break text[at..]
                        .chars()
                        .take_while(char::is_ascii_hexdigit)
                        .collect();
                }
                assert!(
                    started.elapsed() < Duration::from_secs(20),
                    "no mail {n} to {to} with a link to #/{view}: {:?}",
                    self.messages()
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        };
        format!("{link}{code}")
    }

    /// Waits for the `n`th message to `to` with a link to `view`: the code its link carries.
    pub fn code(&self, to: &str, view: &str, n: usize) -> String {
        let link = self.link_in(to, view, n);
        link[self.link(view).len()..].to_string()
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A message's text with quoted-printable's soft line breaks and `=3D` undone.
pub fn unfolded(message: &str) -> String {
    message
        .replace("=\r\n", "")
        .replace("=\n", "")
        .replace("=3D", "=")
}
