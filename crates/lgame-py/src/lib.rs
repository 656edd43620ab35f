//! `lgame._lgame`: the L game's rules, records, referee and solver for Python, through PyO3.
//!
//! The Python package `lgame` (python/lgame) re-exports everything here; its stub
//! `python/lgame/_lgame.pyi` documents the interface. Values cross into Python only when
//! asked for: a solved [`Tablebase`] stays in Rust and is probed in place.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};

use lgame::game::{DrawRules, GameError};
use lgame::moves::IllegalMove;
use lgame::Color;
use lgame_solver::{SolveOptions, Statistics, Tablebase, Value};
use pyo3::exceptions::{PyException, PyIndexError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple, PyType};

mod action;
mod vector;

use action::Encoding;

// ---------------------------------------------------------------------------------------
// Errors: `LgameError` and subclasses that are also `ValueError`s. PyO3's
// `create_exception!` takes one base, so the classes are made with `type()` at import.

struct Errors {
    base: Py<PyType>,
    rules: Py<PyType>,
    position: Py<PyType>,
    mv: Py<PyType>,
    illegal: Py<PyType>,
    record: Py<PyType>,
}

static ERRORS: PyOnceLock<Errors> = PyOnceLock::new();

fn make_errors(py: Python<'_>) -> PyResult<Errors> {
    let type_ = py.import("builtins")?.getattr("type")?;
    let make = |name: &str, bases: Bound<'_, PyTuple>, doc: &str| -> PyResult<Py<PyType>> {
        let dict = PyDict::new(py);
        dict.set_item("__module__", "lgame")?;
        dict.set_item("__doc__", doc)?;
        Ok(type_
            .call1((name, bases, dict))?
            .cast_into::<PyType>()?
            .unbind())
    };
    let exception = py.get_type::<PyException>();
    let value_error = py.get_type::<PyValueError>();
    let base = make(
        "LgameError",
        PyTuple::new(py, [exception])?,
        "The base of lgame's errors.",
    )?;
    let sub = |name: &str, doc: &str| {
        make(
            name,
            PyTuple::new(py, [base.bind(py).clone(), value_error.clone()])?,
            doc,
        )
    };
    Ok(Errors {
        rules: sub("RulesError", "Rules text that is not a variant.")?,
        position: sub(
            "PositionError",
            "Position text that cannot be read or is not legal under the rules.",
        )?,
        mv: sub("MoveError", "Move text that cannot be read.")?,
        illegal: sub(
            "IllegalMoveError",
            "An illegal move; `kind` names the reason as the library's serde `kind` does.",
        )?,
        record: sub(
            "RecordError",
            "A game record that cannot be read or replayed.",
        )?,
        base,
    })
}

fn errors(py: Python<'_>) -> &'static Errors {
    ERRORS.get_or_init(py, || {
        make_errors(py).expect("the error classes are made with builtins.type")
    })
}

fn raise(ty: &Py<PyType>, message: impl Into<String>) -> PyErr {
    Python::attach(|py| PyErr::from_type(ty.bind(py).clone(), message.into()))
}

fn lgame_error(message: impl Into<String>) -> PyErr {
    Python::attach(|py| raise(&errors(py).base, message))
}

/// An `IllegalMoveError` with its `kind`.
fn illegal_error(kind: &str, message: String) -> PyErr {
    Python::attach(|py| {
        let make = || -> PyResult<PyErr> {
            let err = errors(py).illegal.bind(py).call1((message.clone(),))?;
            err.setattr("kind", kind)?;
            Ok(PyErr::from_value(err))
        };
        make().unwrap_or_else(|e| e)
    })
}

fn illegal_move_error(e: &IllegalMove) -> PyErr {
    // The kind exactly as the library serialises it (its serde `kind` tag).
    let kind = serde_json::to_value(e)
        .ok()
        .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_string))
        .unwrap_or_else(|| "illegal".to_string());
    illegal_error(&kind, e.to_string())
}

fn game_error(e: GameError) -> PyErr {
    match e {
        GameError::Illegal(e) => illegal_move_error(&e),
        GameError::Over(c) => illegal_error("game_over", format!("the game is over ({c})")),
        other => lgame_error(other.to_string()),
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Blue => "blue",
    }
}

// ---------------------------------------------------------------------------------------
// Arguments that take an object or its text.

fn rules_arg(obj: &Bound<'_, PyAny>) -> PyResult<lgame::Rules> {
    if let Ok(rules) = obj.cast::<Rules>() {
        return Ok(rules.get().0);
    }
    let text: String = obj.extract().map_err(|_| {
        PyErr::new::<pyo3::exceptions::PyTypeError, _>("rules must be a Rules or str")
    })?;
    text.parse::<lgame::Rules>()
        .map_err(|e| raise(&errors(obj.py()).rules, e.to_string()))
}

fn position_arg(obj: &Bound<'_, PyAny>, rules: &lgame::Rules) -> PyResult<lgame::Position> {
    if let Ok(position) = obj.cast::<Position>() {
        return Ok(position.get().0);
    }
    let text: String = obj.extract().map_err(|_| {
        PyErr::new::<pyo3::exceptions::PyTypeError, _>("position must be a Position or str")
    })?;
    lgame::Position::from_text(&text, rules)
        .map_err(|e| raise(&errors(obj.py()).position, e.to_string()))
}

fn move_arg(obj: &Bound<'_, PyAny>) -> PyResult<lgame::Move> {
    if let Ok(mv) = obj.cast::<Move>() {
        return Ok(mv.get().0);
    }
    let text: String = obj.extract().map_err(|_| {
        PyErr::new::<pyo3::exceptions::PyTypeError, _>("move must be a Move or str")
    })?;
    text.parse::<lgame::Move>()
        .map_err(|e| raise(&errors(obj.py()).mv, e.to_string()))
}

fn repr_str(py: Python<'_>, s: &str) -> PyResult<String> {
    PyString::new(py, s).repr()?.extract()
}

// ---------------------------------------------------------------------------------------

/// A variant's rules, read from its text (`"classic"`, `"board=5x5,neutrals=3"`, …).
#[pyclass(frozen, eq, hash, module = "lgame")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Rules(lgame::Rules);

#[pymethods]
impl Rules {
    #[new]
    #[pyo3(signature = (text = "classic"))]
    fn new(py: Python<'_>, text: &str) -> PyResult<Rules> {
        text.parse()
            .map(Rules)
            .map_err(|e: lgame::rules::RulesError| raise(&errors(py).rules, e.to_string()))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Rules({})", repr_str(py, &self.0.to_string())?))
    }

    /// Pickled (and copied) as its text.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().into_any(), (slf.get().0.to_string(),)))
    }

    #[getter]
    fn width(&self) -> u8 {
        self.0.board().width()
    }

    #[getter]
    fn height(&self) -> u8 {
        self.0.board().height()
    }

    #[getter]
    fn neutrals(&self) -> u8 {
        self.0.neutrals()
    }

    #[getter]
    fn scoring_target(&self) -> Option<u8> {
        self.0.scoring_target()
    }

    /// The start position (the standard setup, or the one the text's `setup=` names).
    fn start(&self) -> Position {
        Position(self.0.start_position())
    }

    /// The size of the fixed action space: placements × C(cells, neutrals).
    fn action_count(&self) -> u64 {
        Encoding::new(&self.0).count()
    }
}

/// A move, as notation.md writes it: `"A1,A2,A3,B3 D1-D2"`.
#[pyclass(frozen, eq, hash, module = "lgame")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Move(lgame::Move);

#[pymethods]
impl Move {
    #[new]
    fn new(py: Python<'_>, text: &str) -> PyResult<Move> {
        text.parse()
            .map(Move)
            .map_err(|e: lgame::notation::ParseMoveError| raise(&errors(py).mv, e.to_string()))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Move({})", repr_str(py, &self.0.to_string())?))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().into_any(), (slf.get().0.to_string(),)))
    }
}

/// A legal position under a variant's rules.
#[pyclass(frozen, eq, hash, module = "lgame")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Position(lgame::Position);

impl Position {
    fn encoding(&self) -> Encoding {
        Encoding::new(self.0.rules())
    }

    /// The legal move an action names here.
    fn move_of_action(&self, action: u64) -> PyResult<lgame::Move> {
        let mv = self.encoding().decode(&self.0, action)?;
        self.0.check_move(&mv).map_err(|e| illegal_move_error(&e))?;
        Ok(mv)
    }
}

#[pymethods]
impl Position {
    #[new]
    // None stands for "classic", which the signature shows.
    #[pyo3(signature = (text, rules = None), text_signature = "(text, rules='classic')")]
    fn new(py: Python<'_>, text: &str, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Position> {
        let rules = match rules {
            Some(r) => rules_arg(r)?,
            None => lgame::Rules::classic(),
        };
        lgame::Position::from_text(text, &rules)
            .map(Position)
            .map_err(|e| raise(&errors(py).position, e.to_string()))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let rules = self.0.rules().to_string();
        if rules == "classic" {
            Ok(format!("Position({})", repr_str(py, &self.0.to_string())?))
        } else {
            Ok(format!(
                "Position({}, rules={})",
                repr_str(py, &self.0.to_string())?,
                repr_str(py, &rules)?
            ))
        }
    }

    /// Pickled (and copied) as its text and its rules' text.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let p = slf.get().0;
        Ok((
            slf.get_type().into_any(),
            (p.to_string(), p.rules().to_string()),
        ))
    }

    #[getter]
    fn rules(&self) -> Rules {
        Rules(*self.0.rules())
    }

    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.0.turn())
    }

    /// (red, blue) under scoring, else None.
    #[getter]
    fn scores(&self) -> Option<(u8, u8)> {
        self.0.rules().scoring_target().map(|_| {
            let s = self.0.scores();
            (s.red, s.blue)
        })
    }

    /// The readable cell-list form, e.g. `R:A1,A2,A3,B1 B:C4,D2,D3,D4 N:B2,C3 r`.
    fn cell_list(&self) -> String {
        self.0.to_cell_list_string()
    }

    fn legal_moves(&self) -> Vec<Move> {
        self.0.legal_moves().into_iter().map(Move).collect()
    }

    fn play(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Position> {
        let mv = move_arg(r#move)?;
        self.0
            .play(&mv)
            .map(Position)
            .map_err(|e| illegal_move_error(&e))
    }

    fn is_over(&self) -> bool {
        self.0.is_finished()
    }

    fn winner(&self) -> Option<&'static str> {
        self.0.outcome().map(|o| color_name(o.winner))
    }

    fn canonical(&self) -> Position {
        Position(self.0.canonical())
    }

    /// The board as text (no colour).
    fn diagram(&self) -> String {
        lgame::diagram::text(&self.0, false)
    }

    fn _repr_svg_(&self) -> String {
        lgame::diagram::svg(&self.0, None)
    }

    /// One byte per action, 1 where the action is a legal move here.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let encoding = self.encoding();
        let len = encoding.mask_len()?;
        PyBytes::new_with(py, len, |buf| {
            // new_with hands over zeroed bytes.
            encoding.for_each_legal_action(&self.0, |a| buf[a as usize] = 1);
            Ok(())
        })
    }

    fn legal_actions(&self) -> Vec<u64> {
        let mut actions = Vec::new();
        self.encoding()
            .for_each_legal_action(&self.0, |a| actions.push(a));
        actions.sort_unstable();
        actions
    }

    fn action_of(&self, r#move: &Bound<'_, PyAny>) -> PyResult<u64> {
        let mv = move_arg(r#move)?;
        self.0.check_move(&mv).map_err(|e| illegal_move_error(&e))?;
        self.encoding()
            .encode(&self.0, &mv)
            .ok_or_else(|| lgame_error(format!("no action for the move {mv}")))
    }

    fn move_of(&self, action: u64) -> PyResult<Move> {
        self.move_of_action(action).map(Move)
    }

    fn play_action(&self, action: u64) -> PyResult<Position> {
        let mv = self.move_of_action(action)?;
        Ok(Position(self.0.play_unchecked(&mv)))
    }

    /// 3 × height × width bytes: the mover's L, the other L, the neutrals; each row-major,
    /// row 1 first.
    fn planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let board = self.0.board();
        let (w, h) = (board.width() as usize, board.height() as usize);
        let mover = self.0.turn();
        let sets = [self.0.l(mover), self.0.l(!mover), self.0.neutrals()];
        PyBytes::new_with(py, 3 * w * h, |buf| {
            for (plane, set) in sets.iter().enumerate() {
                for sq in *set {
                    buf[plane * w * h + sq.row() as usize * w + sq.column() as usize] = 1;
                }
            }
            Ok(())
        })
    }
}

/// A game with optional draw rules (turn limit, repetition count).
#[pyclass(module = "lgame")]
struct Game(lgame::Game);

#[pymethods]
impl Game {
    #[new]
    #[pyo3(
        signature = (rules = None, turn_limit = None, repetition = None),
        text_signature = "(rules='classic', turn_limit=None, repetition=None)"
    )]
    fn new(
        rules: Option<&Bound<'_, PyAny>>,
        turn_limit: Option<u32>,
        repetition: Option<u32>,
    ) -> PyResult<Game> {
        let rules = match rules {
            Some(r) => rules_arg(r)?,
            None => lgame::Rules::classic(),
        };
        Ok(Game(lgame::Game::new(rules).with_draw_rules(DrawRules {
            turn_limit,
            repetition,
        })))
    }

    fn __repr__(&self) -> String {
        format!(
            "<lgame.Game {} after {} plies: {}>",
            self.0.rules(),
            self.0.plies().len(),
            self.0.position()
        )
    }

    fn __copy__(&self) -> Game {
        Game(self.0.clone())
    }

    /// The game a record replays (its moves checked), with the draw rules its tags give.
    #[staticmethod]
    fn from_record(py: Python<'_>, text: &str) -> PyResult<Game> {
        Record::new(py, text)?.game(py)
    }

    /// Pickled as its record (rules, start, draw rules and moves): `Game.from_record`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let record = lgame::Record::from_game(&slf.borrow().0).to_string();
        Ok((slf.get_type().getattr("from_record")?, (record,)))
    }

    /// A game holds no Python objects: a deep copy is a copy (search trees copy games).
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        Game(self.0.clone())
    }

    #[getter]
    fn position(&self) -> Position {
        Position(*self.0.position())
    }

    #[getter]
    fn plies(&self) -> usize {
        self.0.plies().len()
    }

    fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = move_arg(r#move)?;
        self.0.play(&mv).map(|_| ()).map_err(game_error)
    }

    fn play_action(&mut self, action: u64) -> PyResult<()> {
        if let Some(end) = self.0.conclusion() {
            return Err(game_error(GameError::Over(end)));
        }
        let mv = Position(*self.0.position()).move_of_action(action)?;
        self.0.play(&mv).map(|_| ()).map_err(game_error)
    }

    /// Takes back the last move.
    fn undo(&mut self) -> PyResult<()> {
        self.0
            .undo()
            .map(|_| ())
            .ok_or_else(|| PyIndexError::new_err("no move to take back"))
    }

    /// Over on the board or drawn by the draw rules.
    fn is_over(&self) -> bool {
        self.0.is_over()
    }

    /// `1-0`, `0-1`, `1/2-1/2`, or None while the game goes on.
    fn result(&self) -> Option<&'static str> {
        self.0
            .conclusion()
            .and_then(|c| c.result)
            .map(|r| r.token())
    }

    /// How the game ended: `trapped`, `symmetry`, `score target`, `turn limit`, `repetition`.
    fn termination(&self) -> Option<&'static str> {
        self.0.conclusion().map(|c| c.ending.name())
    }

    /// The game record text (notation.md).
    fn record(&self) -> String {
        lgame::Record::from_game(&self.0).to_string()
    }
}

/// A game record (notation.md).
#[pyclass(frozen, module = "lgame")]
struct Record(lgame::Record);

#[pymethods]
impl Record {
    #[new]
    fn new(py: Python<'_>, text: &str) -> PyResult<Record> {
        text.parse()
            .map(Record)
            .map_err(|e: lgame::record::ParseRecordError| raise(&errors(py).record, e.to_string()))
    }

    /// The game the record replays (its moves checked).
    fn game(&self, py: Python<'_>) -> PyResult<Game> {
        self.0
            .replay()
            .map(Game)
            .map_err(|e| raise(&errors(py).record, e.to_string()))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }
}

/// What the referee found in a record.
#[pyclass(frozen, get_all, module = "lgame")]
struct Judgement {
    valid: bool,
    plies: usize,
    result: Option<String>,
    error: Option<String>,
}

#[pymethods]
impl Judgement {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let text = |s: &Option<String>| match s {
            Some(s) => repr_str(py, s),
            None => Ok("None".to_string()),
        };
        Ok(format!(
            "Judgement(valid={}, plies={}, result={}, error={})",
            if self.valid { "True" } else { "False" },
            self.plies,
            text(&self.result)?,
            text(&self.error)?
        ))
    }
}

/// Judges a record from untrusted text or bytes, as `lgame judge` does.
#[pyfunction]
fn judge(record: &Bound<'_, PyAny>) -> PyResult<Judgement> {
    let bytes: Vec<u8> = if let Ok(b) = record.cast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else {
        let text: String = record.extract().map_err(|_| {
            PyErr::new::<pyo3::exceptions::PyTypeError, _>("record must be str or bytes")
        })?;
        text.into_bytes()
    };
    Ok(match lgame::referee::judge_bytes(&bytes) {
        Ok(j) => Judgement {
            valid: j.valid,
            plies: j.plies,
            result: match j.result {
                lgame::game::ResultToken::Finished(r) => Some(r.token().to_string()),
                _ => None,
            },
            error: j.error.map(|e| e.to_string()),
        },
        Err(e) => Judgement {
            valid: false,
            plies: 0,
            result: None,
            error: Some(e.to_string()),
        },
    })
}

/// A solved variant. Probes read the Rust table in place.
#[pyclass(frozen, module = "lgame")]
struct Table(Tablebase);

impl Table {
    fn probe(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
    ) -> PyResult<(lgame::Position, Value)> {
        let rules = *self.0.rules();
        let position = position_arg(position, &rules)?;
        let value = self
            .0
            .value(&position)
            .map_err(|e| raise(&errors(py).position, e.to_string()))?;
        Ok((position, value))
    }
}

fn value_name(v: Value) -> &'static str {
    match v {
        Value::Win(_) => "win",
        Value::Loss(_) => "loss",
        Value::Draw => "draw",
    }
}

#[pymethods]
impl Table {
    #[getter]
    fn rules(&self) -> Rules {
        Rules(*self.0.rules())
    }

    fn __repr__(&self) -> String {
        format!(
            "<lgame.Table {}: {} states>",
            self.0.rules(),
            self.0.index().len()
        )
    }

    /// `win`, `loss` or `draw` for the player to move.
    fn value(&self, position: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        Ok(value_name(self.probe(position.py(), position)?.1))
    }

    /// Plies to the end with best play; None if drawn.
    fn plies(&self, position: &Bound<'_, PyAny>) -> PyResult<Option<u16>> {
        Ok(self.probe(position.py(), position)?.1.plies())
    }

    /// The moves that keep the position's value.
    fn best_moves(&self, position: &Bound<'_, PyAny>) -> PyResult<Vec<Move>> {
        let (position, _) = self.probe(position.py(), position)?;
        let moves = self
            .0
            .best_moves(&position)
            .map_err(|e| lgame_error(e.to_string()))?;
        Ok(moves.into_iter().map(Move).collect())
    }

    /// The figures of `lgame_solver::Statistics` (this walks every position).
    fn statistics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let stats = py.detach(|| Statistics::of(&self.0));
        let json = serde_json::to_value(&stats).map_err(|e| lgame_error(e.to_string()))?;
        json_to_py(py, &json)
    }

    /// Writes the tablebase file (docs/tablebase-format.md).
    fn save(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        py.detach(|| -> std::io::Result<()> {
            let mut w = BufWriter::new(File::create(&path)?);
            lgame_solver::file::write(&self.0, &mut w)?;
            w.flush()
        })
        .map_err(|e| PyOSError::new_err(e.to_string()))
    }

    #[staticmethod]
    fn load(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Table> {
        let file = File::open(&path)
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
        py.detach(|| lgame_solver::file::read(BufReader::new(file)))
            .map(Table)
            .map_err(|e| lgame_error(format!("{}: {e}", path.display())))
    }

    fn __len__(&self) -> usize {
        self.0.index().len() as usize
    }

    /// The start position with its value in the title.
    fn _repr_svg_(&self) -> String {
        let start = self.0.rules().start_position();
        let svg = lgame::diagram::svg(&start, None);
        let title = match self.0.value(&start) {
            Ok(Value::Draw) => format!("{}: the start is a draw", self.0.rules()),
            Ok(v) => format!(
                "{}: the start is a {} in {} plies",
                self.0.rules(),
                value_name(v),
                v.plies().unwrap_or(0)
            ),
            Err(_) => self.0.rules().to_string(),
        };
        // Put the value first in the picture's own title.
        match svg.find("<title>") {
            Some(at) => {
                let at = at + "<title>".len();
                format!("{}{title}. {}", &svg[..at], &svg[at..])
            }
            None => svg,
        }
    }
}

fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value as J;
    Ok(match v {
        J::Null => py.None().into_bound(py),
        J::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        J::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (_, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        J::String(s) => PyString::new(py, s).into_any(),
        J::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        J::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                dict.set_item(k, json_to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// Solves a variant (the interpreter is released meanwhile).
#[pyfunction]
#[pyo3(signature = (rules = None), text_signature = "(rules='classic')")]
fn solve(py: Python<'_>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Table> {
    let rules = match rules {
        Some(r) => rules_arg(r)?,
        None => lgame::Rules::classic(),
    };
    py.detach(|| Tablebase::solve_with(&rules, SolveOptions::default()))
        .map(Table)
        .map_err(|e| lgame_error(e.to_string()))
}

/// The tables the computer players of this process share (solved once each).
static TABLEBASES: std::sync::OnceLock<std::sync::Arc<lgame_players::Tablebases>> =
    std::sync::OnceLock::new();

/// A computer player: a level and strength as `lgame play` names them (`random`, `beginner`,
/// `intermediate:50`, `perfect`), choosing among equal moves with random numbers from `seed`.
#[pyclass(module = "lgame")]
struct Player(lgame_players::BuiltIn);

#[pymethods]
impl Player {
    #[new]
    #[pyo3(signature = (spec, seed = 0))]
    fn new(spec: &str, seed: u64) -> PyResult<Player> {
        let spec: lgame_players::PlayerSpec = spec
            .parse()
            .map_err(|e: lgame_players::ParseSpecError| PyValueError::new_err(e.to_string()))?;
        let tables = TABLEBASES.get_or_init(Default::default).clone();
        Ok(Player(lgame_players::BuiltIn::new(spec, seed, tables)))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Player({})",
            repr_str(py, &self.0.spec().to_string())?
        ))
    }

    /// The player's move in `game`, a `Game` or a `Position` (None once it is over); a table
    /// the level needs is solved at its first use, with the interpreter released.
    fn choose(&mut self, py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<Option<Move>> {
        use lgame_players::Player as _;
        let game = if let Ok(game) = game.cast::<Game>() {
            game.borrow().0.clone()
        } else if let Ok(position) = game.cast::<Position>() {
            lgame::Game::from_position(position.get().0).map_err(game_error)?
        } else {
            return Err(PyErr::new::<pyo3::exceptions::PyTypeError, _>(
                "choose() takes a Game or a Position",
            ));
        };
        let player = &mut self.0;
        Ok(py
            .detach(|| {
                player.prepare(game.rules());
                player.choose_move(&game)
            })
            .map(Move))
    }
}

#[pymodule]
#[pyo3(name = "_lgame")]
fn lgame_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let e = errors(py);
    m.add("LgameError", e.base.bind(py))?;
    m.add("RulesError", e.rules.bind(py))?;
    m.add("PositionError", e.position.bind(py))?;
    m.add("MoveError", e.mv.bind(py))?;
    m.add("IllegalMoveError", e.illegal.bind(py))?;
    m.add("RecordError", e.record.bind(py))?;
    m.add_class::<Rules>()?;
    m.add_class::<Move>()?;
    m.add_class::<Position>()?;
    m.add_class::<Game>()?;
    m.add_class::<Record>()?;
    m.add_class::<Judgement>()?;
    m.add_class::<Table>()?;
    m.add_class::<Player>()?;
    m.add_class::<vector::VectorCore>()?;
    m.add_function(wrap_pyfunction!(judge, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    let variants: Vec<(&str, &str, &str)> = lgame::variants::VARIANTS
        .iter()
        .map(|v| (v.rules, v.name, v.summary))
        .collect();
    m.add("VARIANTS", variants)?;
    Ok(())
}
