//! What a log-in costs the server (not a test): the time of `credentials::hash_password`
//! (making an account, changing a password) and of `credentials::verify_password` with the
//! right password, a wrong one and an unknown user (`None`, checked against the dummy hash),
//! each run `--runs N` times (20 unless told) on one thread, as the median and the maximum in
//! milliseconds; then the process's peak resident memory before the first hash and after them
//! all, whose difference is about one Argon2id's 19 MiB, and its resident memory at the end
//! (back near the start: each hash's memory is returned to the OS).
//!
//! ```sh
//! cargo run --release -p lgame-web --example login_cost
//! cargo run --release -p lgame-web --example login_cost -- --runs 100
//! ```

use std::time::{Duration, Instant};

use lgame_web::credentials::{hash_password, verify_password};

fn main() -> anyhow::Result<()> {
    let mut runs = 20usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => {
                runs = args
                    .next()
                    .ok_or_else(|| anyhow::anyhow!("--runs needs a number"))?
                    .parse()?;
                anyhow::ensure!(runs > 0, "--runs needs at least 1");
            }
            other => anyhow::bail!("unknown argument {other:?} (only --runs N)"),
        }
    }

    let before = memory_kib();
    let password = "correct horse battery staple";
    let mut phc = String::new();
    let hash = measure(runs, || {
        phc = hash_password(password).expect("random bytes from the OS");
    });
    let right = measure(runs, || assert!(verify_password(password, Some(&phc))));
    let wrong = measure(runs, || {
        assert!(!verify_password(
            "correct horse battery stapler",
            Some(&phc)
        ))
    });
    let unknown = measure(runs, || assert!(!verify_password(password, None)));
    let after = memory_kib();

    println!("{phc}");
    println!("{runs} runs each, one thread         median     max");
    for (what, times) in [
        ("hash_password", hash),
        ("verify_password, right password", right),
        ("verify_password, wrong password", wrong),
        ("verify_password, unknown user", unknown),
    ] {
        let (median, max) = median_max(times);
        println!("{what:<32} {:>7.1} ms {:>7.1} ms", ms(median), ms(max));
    }
    let mib = |kib: u64| kib as f64 / 1024.0;
    match (before, after) {
        (Some((peak_before, _)), Some((peak_after, now))) => println!(
            "peak RSS {:.1} MiB before the first hash, {:.1} MiB after them all \
             (+{:.1} MiB); RSS now {:.1} MiB",
            mib(peak_before),
            mib(peak_after),
            mib(peak_after.saturating_sub(peak_before)),
            mib(now)
        ),
        _ => println!("no /proc/self/status: memory not measured"),
    }
    Ok(())
}

fn measure(runs: usize, mut f: impl FnMut()) -> Vec<Duration> {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect()
}

fn median_max(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    (times[times.len() / 2], times[times.len() - 1])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The process's peak resident set so far and its resident set now, in KiB: VmHWM and VmRSS
/// of /proc/self/status (Linux). Not getrusage's ru_maxrss, which survives an exec: under
/// `cargo run` it starts at cargo's own peak, about 90 MiB.
fn memory_kib() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    Some((field("VmHWM:")?, field("VmRSS:")?))
}
