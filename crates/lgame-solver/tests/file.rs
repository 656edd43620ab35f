//! Tablebase files: a round trip, and a clear error for every kind of damage.

use lgame::Rules;
use lgame_solver::file::{self, FileError};
use lgame_solver::Tablebase;

fn classic_bytes() -> (Tablebase, Vec<u8>) {
    let tb = Tablebase::solve(&Rules::classic());
    let bytes = file::to_bytes(&tb);
    (tb, bytes)
}

#[test]
fn tablebase_file_round_trips() {
    let (tb, bytes) = classic_bytes();
    let back = file::from_bytes(&bytes).unwrap();
    assert_eq!(back.rules(), tb.rules());
    for i in 0..tb.index().len() {
        assert_eq!(back.value_at(i), tb.value_at(i));
    }
    let mut written = Vec::new();
    file::write(&back, &mut written).unwrap();
    assert_eq!(written, bytes);
    let scoring = Tablebase::solve(&"scoring,target=2".parse().unwrap());
    let back = file::read(&file::to_bytes(&scoring)[..]).unwrap();
    assert_eq!(back.rules().to_string(), "scoring,target=2");
}

#[test]
fn truncated_file_is_refused_at_every_length() {
    let (_, bytes) = classic_bytes();
    for len in [0, 4, 8, 13, 20, 60, bytes.len() / 2, bytes.len() - 1] {
        let err = file::from_bytes(&bytes[..len]).unwrap_err();
        assert!(matches!(err, FileError::Truncated { .. }), "{len}: {err}");
        assert!(err.to_string().contains("truncated"), "{err}");
    }
}

#[test]
fn every_flipped_bit_is_detected() {
    let (_, bytes) = classic_bytes();
    for pos in (0..bytes.len())
        .step_by(97)
        .chain([bytes.len() - 1, 100, 200])
    {
        for bit in [0, 3, 7] {
            let mut damaged = bytes.clone();
            damaged[pos] ^= 1 << bit;
            let err = file::from_bytes(&damaged).err();
            assert!(
                err.is_some(),
                "a flip at byte {pos} bit {bit} went unnoticed"
            );
        }
    }
    let mut damaged = bytes.clone();
    damaged[1000] ^= 0x10;
    assert_eq!(
        file::from_bytes(&damaged).unwrap_err().to_string(),
        "the tablebase file is corrupted (checksum mismatch)"
    );
}

#[test]
fn wrong_variant_bad_magic_version_and_trailing_bytes_are_named() {
    let (_, bytes) = classic_bytes();
    let misere: Rules = "misere".parse().unwrap();
    assert_eq!(
        file::read_expecting(&bytes[..], &misere)
            .unwrap_err()
            .to_string(),
        "the tablebase is for classic, not misere"
    );
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert_eq!(
        file::from_bytes(&magic).unwrap_err().to_string(),
        "not an lgame tablebase file (bad magic bytes)"
    );
    let mut version = bytes.clone();
    version[8] = 9;
    assert_eq!(
        file::from_bytes(&version).unwrap_err().to_string(),
        "tablebase format version 9 is not supported (this lgame reads version 1)"
    );
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(
        file::from_bytes(&longer).unwrap_err().to_string(),
        "the tablebase file has 1 unexpected bytes at the end"
    );
}
