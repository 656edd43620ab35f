use super::*;

/// A holder for a pool that lives as long as the test.
fn held(text: &str) -> &'static Holder {
    Box::leak(Box::new(text.parse().unwrap()))
}

fn waiting(list: &[(&'static str, i64, i64)]) -> Vec<Waiting<'static>> {
    list.iter()
        .map(|&(holder, rating, since_ms)| Waiting {
            holder: held(holder),
            rating,
            since_ms,
        })
        .collect()
}

#[test]
fn pairing_pairs_the_nearest_ratings_first_and_widens_with_waiting() {
    let none = BTreeSet::new();
    // Nearest first: 1500 with 1510 (not with 1400, which came first), 1400 with 1300.
    let pool = waiting(&[
        ("a:1", 1400, 0),
        ("a:2", 1500, 0),
        ("a:3", 1510, 0),
        ("a:4", 1300, 0),
    ]);
    assert_eq!(pairs(&pool, 0, &none), vec![(1, 2), (0, 3)]);
    // Two kept apart (one browser's accounts) are not paired, however near.
    let apart = BTreeSet::from([(1, 2)]);
    assert_eq!(pairs(&pool, 0, &apart), vec![(0, 1)]);
    // 400 apart: not at once, nor after 11 s (±375), but after 12 s (±400).
    let far = waiting(&[("a:1", 1500, 0), ("a:2", 1900, 5_000)]);
    assert_eq!(range_after(0, 11_999), 375);
    assert!(pairs(&far, 0, &none).is_empty());
    assert!(pairs(&far, 11_999, &none).is_empty());
    assert_eq!(pairs(&far, 12_000, &none), vec![(0, 1)]);
    // Never a holder with itself; an odd one out waits.
    let same = waiting(&[("u:1", 1500, 0), ("u:1", 1500, 0), ("u:2", 1700, 0)]);
    assert!(pairs(&same, 0, &none).is_empty());
    assert_eq!(pairs(&same, 10_000, &none), vec![(0, 2)]);
    // Checked against every way of pairing a small pool: what is chosen is never
    // beaten by a pair of two left out (both unpaired and within range).
    let ratings = [1500, 1450, 1620, 1380, 1900, 1505, 1700];
    for n in 2..=ratings.len() {
        let pool: Vec<Waiting<'static>> = (0..n)
            .map(|i| Waiting {
                holder: held(["a:0", "a:1", "a:2", "a:3", "a:4", "a:5", "a:6"][i]),
                rating: ratings[i],
                since_ms: (i as i64) * 1000,
            })
            .collect();
        for now in [0, 4_000, 30_000] {
            let chosen = pairs(&pool, now, &none);
            let mut paired = vec![false; n];
            for &(i, j) in &chosen {
                assert!(!paired[i] && !paired[j], "{chosen:?}");
                paired[i] = true;
                paired[j] = true;
                let gap = (pool[i].rating - pool[j].rating).abs();
                assert!(gap <= range_after(pool[i].since_ms.min(pool[j].since_ms), now));
            }
            for i in 0..n {
                for j in i + 1..n {
                    let gap = (pool[i].rating - pool[j].rating).abs();
                    let fits = gap <= range_after(pool[i].since_ms.min(pool[j].since_ms), now);
                    assert!(!(fits && !paired[i] && !paired[j]), "{i} {j} left at {now}");
                }
            }
        }
    }
}

#[test]
fn the_pools_controls_are_valid_time_controls() {
    for name in POOL {
        let control = pool_control(name).unwrap();
        assert_eq!(control.check(), Ok(control), "{name}");
    }
    assert_eq!(
        pool_control("3+2"),
        Some(TimeControl::RealTime {
            initial_s: 180,
            increment_s: 2
        })
    );
    assert_eq!(
        pool_control("3d"),
        Some(TimeControl::Correspondence { days: 3 })
    );
    assert_eq!(pool_control("4+0"), None);
    assert_eq!(pool_control("3+0 "), None);
}
