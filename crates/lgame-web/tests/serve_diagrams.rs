//! Pictures (docs/api.md, `GET /api/diagram` and `GET /api/qr`): a diagram is the
//! library's SVG of the position and the move, a QR code an SVG of 1 to 1,000 bytes; end to
//! end over HTTP on a loopback port.

use lgame::Move;
use lgame_test_support::http::encode;
use lgame_test_support::library::{after_moves, position};
use lgame_test_support::server::Server;

#[test]
fn a_diagram_is_the_librarys_svg_of_the_position_and_the_move() {
    let (_dir, server) = Server::in_temp_dir("page-diagram");
    let standard = position("classic", "standard");
    let plain = server.get_with("/api/diagram?position=standard", &[]);
    assert_eq!(plain.status, 200, "{}", plain.text());
    assert_eq!(plain.header("content-type"), "image/svg+xml");
    assert!(
        plain.text().starts_with("<svg") || plain.text().starts_with("<?xml"),
        "{}",
        &plain.text()[..plain.text().len().min(80)]
    );
    assert_eq!(plain.text(), lgame::diagram::svg(&standard, None));

    let mv: Move = "A1,A2,A3,B3 D1-D2".parse().unwrap();
    let marked = server.get_with(
        &format!(
            "/api/diagram?position=standard&highlight={}",
            encode(&mv.to_string())
        ),
        &[],
    );
    assert_eq!(marked.status, 200, "{}", marked.text());
    assert_eq!(marked.header("content-type"), "image/svg+xml");
    assert_eq!(marked.text(), lgame::diagram::svg(&standard, Some(&mv)));
    assert_ne!(marked.text(), plain.text());

    let (mid, _) = after_moves("board=5x4", "start", &[4, 9]);
    let wide = server.get_with(
        &format!(
            "/api/diagram?variant={}&position={}",
            encode("board=5x4"),
            encode(&mid.to_string())
        ),
        &[],
    );
    assert_eq!(wide.status, 200, "{}", wide.text());
    assert_eq!(wide.text(), lgame::diagram::svg(&mid, None));

    let bad = server.get("/api/diagram?position=standard&highlight=zz");
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(bad.error().contains("highlight 'zz'"), "{}", bad.error());
    let bad = server.get("/api/diagram?position=nonsense");
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(
        bad.error().contains("position 'nonsense'"),
        "{}",
        bad.error()
    );
}

#[test]
fn a_qr_code_is_an_svg_of_1_to_1000_bytes() {
    let (_dir, server) = Server::in_temp_dir("page-qr");
    let link = server.get_with(&format!("/api/qr?text={}", encode("http://example/x")), &[]);
    assert_eq!(link.status, 200, "{}", link.text());
    assert_eq!(link.header("content-type"), "image/svg+xml");
    assert!(link.text().contains("<svg"), "{}", link.text());
    let other = server.get_with(&format!("/api/qr?text={}", encode("http://example/y")), &[]);
    assert_eq!(other.status, 200);
    assert_ne!(other.text(), link.text(), "the picture depends on the text");

    let longest = server.get_with(&format!("/api/qr?text={}", "a".repeat(1_000)), &[]);
    assert_eq!(longest.status, 200, "{}", longest.text());
    assert!(longest.text().contains("<svg"));

    for (path, length) in [
        ("/api/qr?text=".to_string(), 0),
        (format!("/api/qr?text={}", "a".repeat(1_001)), 1_001),
        // Bytes, not characters: 334 three-byte characters.
        (format!("/api/qr?text={}", encode(&"€".repeat(334))), 1_002),
    ] {
        let reply = server.get(&path);
        assert_eq!(reply.status, 400, "{length}: {}", reply.body);
        assert!(
            reply.error().ends_with(&format!("not {length}")),
            "{}",
            reply.error()
        );
    }
    let missing = server.get("/api/qr");
    assert_eq!(missing.status, 400, "{}", missing.body);
}
