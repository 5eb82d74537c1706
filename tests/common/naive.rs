//! A deliberately naive Konane move generator, written from `docs/rules.md`
//! alone, to check the engine's bitboard generator against.
//!
//! Everything here is the slowest obvious thing: a `Vec` of squares, loops over files
//! and ranks, a fresh board cloned for every move. It shares no code with `src/rules/`
//! beyond the plain enums that name colours and rules.

use std::fmt::Write as _;

use konane::rules::{Color, MultiJump, Opening};

/// The rules a naive board is played under (its size is the board's own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Which black stones black may remove first.
    pub opening: Opening,
    /// How the jumps of one move may continue.
    pub multi_jump: MultiJump,
}

impl std::fmt::Display for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.opening.name(), self.multi_jump.name())
    }
}

/// A square as (file, rank), both counted from 0: (0, 0) is a1.
pub type Sq = (usize, usize);

/// The name of a square as the rules write it: file letter, then rank from 1.
pub fn square_name((file, rank): Sq) -> String {
    format!("{}{}", char::from(b'a' + file as u8), rank + 1)
}

/// The four orthogonal steps as (file change, rank change).
const STEPS: [(isize, isize); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// A board of `width` x `height` squares, each empty or holding a stone, and the side
/// to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    width: usize,
    height: usize,
    /// `cells[rank * width + file]`, rank 0 at the bottom.
    cells: Vec<Option<Color>>,
    side: Color,
}

/// One legal move as the naive generator sees it.
#[derive(Clone, Debug)]
pub struct NaiveMove {
    /// Every square the stone stands on, start first (one square for a removal).
    pub path: Vec<Sq>,
    /// The enemy stones jumped, in order (empty for a removal).
    pub captured: Vec<Sq>,
    /// The canonical text: start square, then the end of each straight run of jumps.
    pub text: String,
    /// The position after the move.
    pub after: Board,
}

impl NaiveMove {
    /// The move with every square it stands on listed, joined by `sep`
    /// (`d7-d5-d3` for the canonical `d7d3`).
    pub fn long_text(&self, sep: &str) -> String {
        let names: Vec<String> = self.path.iter().map(|&s| square_name(s)).collect();
        names.join(sep)
    }

    /// The canonical squares joined by `sep` (`d7-d3`).
    pub fn text_with(&self, sep: &str) -> String {
        let names: Vec<String> = run_ends(&self.path).into_iter().map(square_name).collect();
        names.join(sep)
    }

    /// What the move does to the board, the same for two paths that capture the same
    /// stones and end on the same square: (start, end, captured squares sorted).
    pub fn effect(&self) -> (Sq, Sq, Vec<Sq>) {
        let mut captured = self.captured.clone();
        captured.sort_unstable();
        (self.path[0], self.path[self.path.len() - 1], captured)
    }
}

/// The colour of the stones that start on (and so always stand on) a square: the
/// top-left square is black and colours alternate like a chessboard.
pub fn square_colour(height: usize, (file, rank): Sq) -> Color {
    let rows_from_top = height - 1 - rank;
    if (file + rows_from_top).is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

/// The 1, 2 or 4 squares nearest the middle: files `(W-1)/2` and `W/2`, ranks
/// `(H-1)/2` and `H/2`.
pub fn is_central(width: usize, height: usize, (file, rank): Sq) -> bool {
    let files = [(width - 1) / 2, width / 2];
    let ranks = [(height - 1) / 2, height / 2];
    files.contains(&file) && ranks.contains(&rank)
}

/// Whether `sq` is one of the four corners.
pub fn is_corner(width: usize, height: usize, (file, rank): Sq) -> bool {
    (file == 0 || file == width - 1) && (rank == 0 || rank == height - 1)
}

/// Whether black may open by removing the stone on `sq` (never on a white square).
pub fn may_open(opening: Opening, width: usize, height: usize, sq: Sq) -> bool {
    if square_colour(height, sq) != Color::Black {
        return false;
    }
    match opening {
        Opening::Diagonal => is_corner(width, height, sq) || is_central(width, height, sq),
        Opening::Centre => is_central(width, height, sq),
        Opening::Any => true,
    }
}

impl Board {
    /// The start: every square filled, black to move.
    pub fn start(width: usize, height: usize) -> Board {
        let mut cells = Vec::new();
        for rank in 0..height {
            for file in 0..width {
                cells.push(Some(square_colour(height, (file, rank))));
            }
        }
        Board {
            width,
            height,
            cells,
            side: Color::Black,
        }
    }

    /// An empty board with `side` to move, to be filled with [`Board::set`].
    pub fn empty(width: usize, height: usize, side: Color) -> Board {
        Board {
            width,
            height,
            cells: vec![None; width * height],
            side,
        }
    }

    /// Reads position text: ranks from the top separated by `/`, `b`, `w` or a number
    /// of empty squares, a space, the side to move. Refuses stones on squares of the
    /// other colour. Only meant for text the tests trust to be well formed otherwise.
    pub fn from_text(text: &str) -> Result<Board, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, side] = fields[..] else {
            return Err(format!("'{text}' is not a board and a side to move"));
        };
        let side = match side {
            "b" => Color::Black,
            "w" => Color::White,
            other => return Err(format!("side to move '{other}'")),
        };
        let mut rows: Vec<Vec<Option<Color>>> = Vec::new();
        for rank_text in board.split('/') {
            let mut row = Vec::new();
            let mut number = String::new();
            for c in rank_text.chars() {
                if c.is_ascii_digit() {
                    number.push(c);
                    continue;
                }
                if !number.is_empty() {
                    let n: usize = number.parse().map_err(|_| "bad number".to_string())?;
                    row.extend(std::iter::repeat_n(None, n));
                    number.clear();
                }
                match c {
                    'b' => row.push(Some(Color::Black)),
                    'w' => row.push(Some(Color::White)),
                    other => return Err(format!("unexpected '{other}'")),
                }
            }
            if !number.is_empty() {
                let n: usize = number.parse().map_err(|_| "bad number".to_string())?;
                row.extend(std::iter::repeat_n(None, n));
            }
            rows.push(row);
        }
        let height = rows.len();
        let width = rows[0].len();
        if rows.iter().any(|r| r.len() != width) {
            return Err("ranks of different widths".to_string());
        }
        // The text lists the top rank first.
        rows.reverse();
        let board = Board {
            width,
            height,
            cells: rows.concat(),
            side,
        };
        for sq in board.squares() {
            if let Some(colour) = board.get(sq)
                && colour != square_colour(height, sq)
            {
                return Err(format!(
                    "{colour} stone on {} of the other colour",
                    square_name(sq)
                ));
            }
        }
        Ok(board)
    }

    /// The position text of the board.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for rank in (0..self.height).rev() {
            let mut run = 0;
            for file in 0..self.width {
                match self.get((file, rank)) {
                    None => run += 1,
                    Some(colour) => {
                        if run > 0 {
                            write!(out, "{run}").unwrap();
                            run = 0;
                        }
                        out.push(if colour == Color::Black { 'b' } else { 'w' });
                    }
                }
            }
            if run > 0 {
                write!(out, "{run}").unwrap();
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(if self.side == Color::Black { 'b' } else { 'w' });
        out
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn side(&self) -> Color {
        self.side
    }

    /// The same board with `side` to move.
    pub fn with_side(&self, side: Color) -> Board {
        Board {
            side,
            ..self.clone()
        }
    }

    /// Every square, a1 first, rank by rank.
    pub fn squares(&self) -> impl Iterator<Item = Sq> + use<> {
        let (width, height) = (self.width, self.height);
        (0..height).flat_map(move |rank| (0..width).map(move |file| (file, rank)))
    }

    pub fn get(&self, (file, rank): Sq) -> Option<Color> {
        self.cells[rank * self.width + file]
    }

    /// Puts a stone of the square's own colour on `sq`, or empties it.
    pub fn set(&mut self, sq: Sq, filled: bool) {
        self.cells[sq.1 * self.width + sq.0] = filled.then(|| square_colour(self.height, sq));
    }

    fn put(&mut self, (file, rank): Sq, stone: Option<Color>) {
        self.cells[rank * self.width + file] = stone;
    }

    pub fn empty_squares(&self) -> Vec<Sq> {
        self.squares().filter(|&s| self.get(s).is_none()).collect()
    }

    pub fn stone_count(&self) -> usize {
        self.squares().filter(|&s| self.get(s).is_some()).count()
    }

    /// The square `steps` steps from `sq` along `step`, if it is on the board.
    fn offset(&self, (file, rank): Sq, step: (isize, isize), steps: isize) -> Option<Sq> {
        let f = file as isize + step.0 * steps;
        let r = rank as isize + step.1 * steps;
        let on_board = f >= 0 && r >= 0 && (f as usize) < self.width && (r as usize) < self.height;
        on_board.then_some((f as usize, r as usize))
    }

    /// Whether the rules could have produced this board with this side to move, judged
    /// by what the opening leaves behind: a full board is black's removal; one gap is
    /// white's removal after a black removal the opening rule allows; two gaps are that
    /// removal and a white stone next to it, black to move. Later positions are not
    /// judged (stones are always on their own colour here by construction).
    pub fn is_possible(&self, opening: Opening) -> bool {
        let empty = self.empty_squares();
        let (w, h) = (self.width, self.height);
        match empty.len() {
            0 => self.side == Color::Black,
            1 => self.side == Color::White && may_open(opening, w, h, empty[0]),
            2 => {
                if self.side != Color::Black {
                    return false;
                }
                let (a, b) = (empty[0], empty[1]);
                let adjacent = a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1;
                // Adjacent squares have different colours: the black one was black's.
                let black_gap = if square_colour(h, a) == Color::Black {
                    a
                } else {
                    b
                };
                adjacent && may_open(opening, w, h, black_gap)
            }
            _ => true,
        }
    }

    /// Every legal move: one entry per jump path (the moves perft counts).
    pub fn moves(&self, rules: Rules) -> Vec<NaiveMove> {
        let empty = self.empty_squares();
        match empty.len() {
            0 => self.black_removals(rules.opening),
            1 => self.white_removals(empty[0]),
            _ => self.jumps(rules.multi_jump),
        }
    }

    fn removal(&self, sq: Sq) -> NaiveMove {
        let mut after = self.clone();
        after.put(sq, None);
        after.side = self.side.opponent();
        NaiveMove {
            path: vec![sq],
            captured: Vec::new(),
            text: square_name(sq),
            after,
        }
    }

    /// Full board: black removes one of its stones that the opening rule allows.
    fn black_removals(&self, opening: Opening) -> Vec<NaiveMove> {
        if self.side != Color::Black {
            return Vec::new();
        }
        self.squares()
            .filter(|&s| self.get(s) == Some(Color::Black))
            .filter(|&s| may_open(opening, self.width, self.height, s))
            .map(|s| self.removal(s))
            .collect()
    }

    /// One gap: white removes one of its stones orthogonally next to it.
    fn white_removals(&self, gap: Sq) -> Vec<NaiveMove> {
        if self.side != Color::White {
            return Vec::new();
        }
        STEPS
            .iter()
            .filter_map(|&step| self.offset(gap, step, 1))
            .filter(|&s| self.get(s) == Some(Color::White))
            .map(|s| self.removal(s))
            .collect()
    }

    fn jumps(&self, multi_jump: MultiJump) -> Vec<NaiveMove> {
        let mut out = Vec::new();
        for start in self.squares() {
            if self.get(start) != Some(self.side) {
                continue;
            }
            let mut work = self.clone();
            let mut path = vec![start];
            let mut captured = Vec::new();
            work.extend_jumps(multi_jump, &mut path, &mut captured, &mut out);
        }
        out
    }

    /// Records every way of making one more jump from the end of `path` (each is a
    /// move: stopping is always allowed), then every way of going on from there.
    fn extend_jumps(
        &mut self,
        multi_jump: MultiJump,
        path: &mut Vec<Sq>,
        captured: &mut Vec<Sq>,
        out: &mut Vec<NaiveMove>,
    ) {
        let at = path[path.len() - 1];
        let first_step = (path.len() >= 2).then(|| step_between(path[0], path[1]));
        let last_step = (path.len() >= 2).then(|| step_between(path[path.len() - 2], at));
        for step in STEPS {
            if multi_jump == MultiJump::Straight && first_step.is_some_and(|f| f != step) {
                continue;
            }
            // Turning: never straight back along the line just jumped. (That jump could
            // not be made anyway: the stone it would cross was just removed.)
            if last_step.is_some_and(|l| l == (-step.0, -step.1)) {
                continue;
            }
            let (Some(over), Some(land)) = (self.offset(at, step, 1), self.offset(at, step, 2))
            else {
                continue;
            };
            if self.get(over) != Some(self.side.opponent()) || self.get(land).is_some() {
                continue;
            }
            let mover = self.side;
            self.put(at, None);
            self.put(over, None);
            self.put(land, Some(mover));
            path.push(land);
            captured.push(over);

            let mut after = self.clone();
            after.side = mover.opponent();
            out.push(NaiveMove {
                path: path.clone(),
                captured: captured.clone(),
                text: canonical_text(path),
                after,
            });
            self.extend_jumps(multi_jump, path, captured, out);

            captured.pop();
            path.pop();
            self.put(land, None);
            self.put(over, Some(mover.opponent()));
            self.put(at, Some(mover));
        }
    }
}

/// The unit step from `a` to `b` on one file or rank.
fn step_between(a: Sq, b: Sq) -> (isize, isize) {
    let df = b.0 as isize - a.0 as isize;
    let dr = b.1 as isize - a.1 as isize;
    (df.signum(), dr.signum())
}

/// The squares the canonical text names: the start, then the square where each straight
/// run of jumps ends.
pub fn run_ends(path: &[Sq]) -> Vec<Sq> {
    let mut squares = vec![path[0]];
    for i in 1..path.len() {
        let last = i + 1 == path.len();
        if last || step_between(path[i - 1], path[i]) != step_between(path[i], path[i + 1]) {
            squares.push(path[i]);
        }
    }
    squares
}

/// The canonical text of a path: its [`run_ends`] written one after the other.
pub fn canonical_text(path: &[Sq]) -> String {
    run_ends(path).into_iter().map(square_name).collect()
}

/// Number of move sequences of `depth` plies (jump paths counted one by one).
pub fn perft(board: &Board, rules: Rules, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves(rules);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| perft(&m.after, rules, depth - 1))
        .sum()
}

/// Perft of each legal move at `depth - 1`, as (canonical text, count).
pub fn divide(board: &Board, rules: Rules, depth: usize) -> Vec<(String, u64)> {
    board
        .moves(rules)
        .into_iter()
        .map(|m| {
            let n = perft(&m.after, rules, depth.max(1) - 1);
            (m.text, n)
        })
        .collect()
}
