//! Picking an L on the board is never a surprise: for a few hundred positions of several
//! variants and board sizes, the four cells of every legal L clicked in a random order make
//! that L. The clicks are pointer events at each cell's place on the screen, through the
//! page's own board and move builder (`ui/board.js`, `ui/move/`), in Chromium; the positions
//! are reached by random play with the rules library.

use crate::browser_common::*;
use lgame::{Position, Rules};
use serde_json::{json, Value};

/// The variants and how many positions of each: classic, other neutrals, other boards, and
/// one the server lists no full moves for (the L is taken and the rest is typed).
const VARIANTS: [(&str, usize); 6] = [
    ("classic", 60),
    ("neutrals=1", 30),
    ("neutrals=3", 30),
    ("board=4x5", 30),
    ("board=5x5", 30),
    ("misere", 30),
];

/// A small deterministic generator (the positions are the same at every run).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// `count` different unfinished positions of `variant` met in random games from its start.
fn positions(variant: &str, count: usize, random: &mut Lcg) -> Vec<String> {
    let rules: Rules = variant.parse().expect("a variant");
    let mut found: Vec<String> = Vec::new();
    while found.len() < count {
        let mut position: Position = rules.start_position();
        for _ in 0..random.below(40) + 1 {
            let moves = position.legal_moves();
            if moves.is_empty() || position.is_finished() {
                break;
            }
            let text = position.to_string();
            if !found.contains(&text) && found.len() < count {
                found.push(text);
            }
            position = position.play_unchecked(&moves[random.below(moves.len())]);
        }
    }
    found
}

/// Puts a board and its move builder on the page (fixed in the screen's corner, so each
/// cell has a place to click) and `window.picking.check(variant, position, seed)`: every legal
/// L's cells clicked in a seeded random order, answering the Ls that came out otherwise.
const PICKER: &str = r#"
const done = arguments[arguments.length - 1];
Promise.all([import('/assets/js/ui/board.js'), import('/assets/js/ui/move/view.js')]).then(([{ Board }, { moveBuilder }]) => {
  const holder = document.createElement('div');
  holder.style.cssText = 'position: fixed; left: 0; top: 0; width: 420px; background: #fff; z-index: 1000;';
  const boardHolder = holder.appendChild(document.createElement('div'));
  const controls = holder.appendChild(document.createElement('div'));
  document.body.appendChild(holder);
  const board = new Board(boardHolder, { label: 'picking' });
  let played = null;
  const ctrl = moveBuilder(board, controls, async (move) => { played = move; });
  // The refused cells' reasons are only words: answered at once, so that thousands of clicks
  // do not wait for the server.
  const real = window.fetch;
  let desc = null;
  window.fetch = (url, init) => String(url).includes('selected=')
    ? Promise.resolve(new Response(JSON.stringify(desc), { headers: { 'content-type': 'application/json' } }))
    : real(url, init);
  const tap = (cell) => {
    const g = board.svg.querySelector(`[data-cell="${cell}"]`);
    const box = g.getBoundingClientRect();
    const at = { clientX: box.left + box.width / 2, clientY: box.top + box.height / 2, bubbles: true, pointerId: 1, isPrimary: true, pointerType: 'mouse', button: 0 };
    const target = document.elementFromPoint(at.clientX, at.clientY);
    target.dispatchEvent(new PointerEvent('pointerdown', at));
    target.dispatchEvent(new PointerEvent('pointerup', at));
  };
  const settle = () => new Promise((r) => setTimeout(r, 0));
  window.picking = {
    async check(variant, position, seed) {
      const answer = await real(`/api/position?variant=${encodeURIComponent(variant)}&position=${encodeURIComponent(position)}`);
      desc = await answer.json();
      board.set(desc);
      ctrl.setPosition(desc, true);
      let random = seed;
      const below = (n) => { random = (random * 1103515245 + 12345) % 2147483648; return random % n; };
      const wrong = [];
      for (const l of desc.l_moves) {
        ctrl.reset(true);
        played = null;
        const order = l.slice();
        for (let i = order.length - 1; i > 0; i--) {
          const j = below(i + 1);
          [order[i], order[j]] = [order[j], order[i]];
        }
        for (const cell of order) {
          tap(cell);
          await settle();
        }
        const got = played ? played.split(' ')[0].split(',') : ctrl.l;
        const key = (cells) => (cells ? cells.slice().sort().join(',') : 'nothing');
        if (key(got) !== key(l)) wrong.push({ clicked: order, got: key(got), wanted: key(l) });
      }
      return { ls: desc.l_moves.length, wrong };
    },
  };
  done(true);
});
"#;

#[test]
fn the_four_cells_of_every_legal_l_clicked_in_any_order_make_that_l() {
    let bench = bench("web-picking");
    let page = bench.driver.session_with(1280, 800);
    bench.open(&page, "#/analyse");
    assert_eq!(page.execute_async(PICKER, vec![]), json!(true));
    let mut random = Lcg(37);
    let (mut checked, mut ls) = (0, 0);
    for (variant, count) in VARIANTS {
        for (i, position) in positions(variant, count, &mut random).iter().enumerate() {
            let result: Value = page.execute_async(
                "const done = arguments[arguments.length - 1];
                 window.picking.check(arguments[0], arguments[1], arguments[2]).then(done, (e) => done({ error: String(e) }));",
                vec![json!(variant), json!(position), json!(i * 7919 + 1)],
            );
            assert_eq!(
                result["wrong"],
                json!([]),
                "{variant} {position}: clicked Ls that came out otherwise: {result}"
            );
            let count = result["ls"].as_u64().expect("a count of Ls");
            assert!(count > 0, "{variant} {position}: {result}");
            checked += 1;
            ls += count;
        }
    }
    println!("{checked} positions, {ls} Ls clicked in a random order");
    assert!(checked >= 200 && ls >= 2000, "{checked} positions, {ls} Ls");
    no_console_errors(&page);
}
