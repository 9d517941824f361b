//! `games tree`: the game tree below a position, as taught, with the
//! minimax value at every node, the path minimax chooses, and (on request)
//! the branches alpha-beta never looks at.
//!
//! The values come from the course's minimax in the `players` crate; this
//! module only lays them out. The one search written here is the
//! alpha-beta walk over the already built tree, which records, in the
//! order the game lists its moves, which branches are cut.

mod dot;
mod svg;
mod text;

use dot::to_dot;
use svg::to_svg;
use text::to_text;

use crate::moves::{reach, read_moves};
use crate::registry::{run_game, GameCommand, Games};
use crate::render::position_title;
use anyhow::Context;
use game_api::{Configurable, Game, Player, Status, Value};
use players::minimax;
use std::io::Write;
use std::process::ExitCode;
use thiserror::Error;

/// Draw the game tree below a position, with minimax values.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// The game (see `games list`).
    game: String,
    /// Game options, as name=value.
    options: Vec<String>,
    /// The position: the moves from the start, in the game's notation.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
    /// How many plies to draw below the position.
    #[arg(long)]
    depth: u32,
    /// text for the terminal, dot for Graphviz, svg for a browser.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Mark the branches alpha-beta cuts (children searched in the game's order).
    #[arg(long)]
    alpha_beta: bool,
}

/// How a tree is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Indented text with box-drawing branches.
    Text,
    /// Graphviz DOT.
    Dot,
    /// A standalone SVG picture.
    Svg,
}

/// Runs `games tree`.
///
/// # Errors
/// Bad game options or moves, or a tree too large to draw, named.
pub fn run(args: &Args, games: impl Games) -> anyhow::Result<ExitCode> {
    run_game(games, &args.game, &args.options, Command(args))
}

struct Command<'a>(&'a Args);

impl GameCommand for Command<'_> {
    type Output = ExitCode;
    fn run<G: Game + Configurable>(self, game: G) -> anyhow::Result<ExitCode> {
        let args = self.0;
        let moves = read_moves(&game, &args.moves.join(" "));
        let start = reach(&game, &moves).context("--moves")?;
        let root = build(&game, &start.state, args.depth, args.alpha_beta)?;
        let tree = Tree {
            title: format!("{}, depth {}", position_title(&game, &moves), args.depth),
            root,
            alpha_beta: args.alpha_beta,
            players: [Player::P1, Player::P2].map(|p| game.string_of_player(p)),
        };
        let drawing = match args.format {
            Format::Text => to_text(&tree),
            Format::Dot => to_dot(&tree),
            Format::Svg => to_svg(&tree),
        };
        let mut out = anstream::stdout();
        out.write_all(drawing.as_bytes())?;
        Ok(ExitCode::SUCCESS)
    }
}

/// The most nodes a tree may have to be drawn: beyond this a drawing is
/// no longer readable.
pub const MAX_NODES: usize = 200;

/// What a node is, which decides how it is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Player 1 to move: takes the largest child value.
    Max,
    /// Player 2 to move: takes the smallest child value.
    Min,
    /// The game is over: the value is the payoff.
    End(Status),
    /// The depth limit: the value is the game's estimate.
    Horizon,
}

/// One position in the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move that leads here, in the game's notation (`None` at the root).
    pub mv: Option<String>,
    /// Max, min, end of game or depth limit.
    pub kind: NodeKind,
    /// The minimax value, to player 1.
    pub value: Value,
    /// The positions after each legal move, in the game's order.
    pub children: Vec<Node>,
    /// The child minimax chooses here (an index into `children`).
    pub best: Option<usize>,
    /// On the path minimax chooses from the root.
    pub chosen: bool,
    /// Skipped by alpha-beta: its subtree is never examined.
    pub cut: bool,
}

impl Node {
    /// The children a drawing shows: none below a cut node, whose subtree
    /// alpha-beta never sees.
    pub fn shown_children(&self) -> &[Node] {
        if self.cut {
            &[]
        } else {
            &self.children
        }
    }

    /// The value in words for labels: `+1`, `-3`, `0`.
    pub fn value_text(&self) -> String {
        if self.value > 0 {
            format!("+{}", self.value)
        } else {
            self.value.to_string()
        }
    }
}

/// A tree ready to draw, with what it is a tree of.
#[derive(Clone, Debug)]
pub struct Tree {
    /// One line saying which game, options, position and depth.
    pub title: String,
    /// The root position.
    pub root: Node,
    /// Whether alpha-beta cuts are marked.
    pub alpha_beta: bool,
    /// How each player is called, for the legend.
    pub players: [String; 2],
}

/// A tree that cannot be drawn.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TreeError {
    /// Too many nodes to draw usefully.
    #[error(
        "the tree to depth {depth} below this position has more than {MAX_NODES} nodes, too many \
         to draw usefully: use a smaller --depth, or play some --moves first"
    )]
    TooLarge {
        /// The depth asked for.
        depth: u32,
    },
    /// A depth of zero.
    #[error("--depth must be at least 1")]
    ZeroDepth,
}

/// Builds the tree of depth `depth` below `state`, with minimax values and
/// the chosen path; with `alpha_beta`, also marks the cut branches.
///
/// # Errors
/// [`TreeError`] when the depth is zero or the tree is too large to draw.
pub fn build<G: Game>(
    game: &G,
    state: &G::State,
    depth: u32,
    alpha_beta: bool,
) -> Result<Node, TreeError> {
    if depth == 0 {
        return Err(TreeError::ZeroDepth);
    }
    let mut budget = MAX_NODES;
    if !fits(game, state, depth, &mut budget) {
        return Err(TreeError::TooLarge { depth });
    }
    let mut root = node(game, state, None, depth);
    mark_chosen(&mut root);
    if alpha_beta {
        mark_cuts(&mut root, Value::MIN, Value::MAX);
    }
    Ok(root)
}

/// Whether the tree fits in `budget` nodes, counting without building it and
/// stopping as soon as it does not.
fn fits<G: Game>(game: &G, state: &G::State, depth: u32, budget: &mut usize) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    if depth == 0 || game.game_status(state).is_over() {
        return true;
    }
    game.legal_moves(state)
        .iter()
        .all(|mv| match game.next_state(state, mv) {
            Ok(next) => fits(game, &next, depth - 1, budget),
            Err(_) => true,
        })
}

/// The node for `state` with `depth` plies below it, valued by the taught
/// minimax, which also says which child it chooses.
fn node<G: Game>(game: &G, state: &G::State, mv: Option<String>, depth: u32) -> Node {
    let status = game.game_status(state);
    let kind = match status {
        Status::Ongoing(_) if depth == 0 => NodeKind::Horizon,
        Status::Ongoing(Player::P1) => NodeKind::Max,
        Status::Ongoing(Player::P2) => NodeKind::Min,
        over => NodeKind::End(over),
    };
    let mut children = Vec::new();
    let mut best = None;
    let chosen = match kind {
        NodeKind::Max | NodeKind::Min => minimax::best_move(game, state, Some(depth)),
        NodeKind::End(_) | NodeKind::Horizon => None,
    };
    let value = match chosen {
        Some((value, chosen)) => {
            for m in game.legal_moves(state) {
                if let Ok(next) = game.next_state(state, &m) {
                    if m == chosen {
                        best = Some(children.len());
                    }
                    children.push(node(game, &next, Some(game.string_of_move(&m)), depth - 1));
                }
            }
            value
        }
        None => minimax::minimax_depth(game, state, depth),
    };
    Node {
        mv,
        kind,
        value,
        children,
        best,
        chosen: false,
        cut: false,
    }
}

/// Marks the path minimax follows from `node`.
fn mark_chosen(node: &mut Node) {
    node.chosen = true;
    if let Some(child) = node.best.and_then(|i| node.children.get_mut(i)) {
        mark_chosen(child);
    }
}

/// Alpha-beta over the built tree, children in the game's order: whenever
/// `alpha >= beta` at a node, its remaining children are marked cut and not
/// visited. Returns the value alpha-beta computes for `node` (equal to the
/// minimax value at the root; a bound on it below cuts).
fn mark_cuts(node: &mut Node, mut alpha: Value, mut beta: Value) -> Value {
    let maximising = match node.kind {
        NodeKind::Max => true,
        NodeKind::Min => false,
        NodeKind::End(_) | NodeKind::Horizon => return node.value,
    };
    let mut best = if maximising { Value::MIN } else { Value::MAX };
    for child in &mut node.children {
        if alpha >= beta {
            child.cut = true;
            continue;
        }
        let v = mark_cuts(child, alpha, beta);
        if maximising {
            best = best.max(v);
            alpha = alpha.max(best);
        } else {
            best = best.min(v);
            beta = beta.min(best);
        }
    }
    best
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use game_api::{IllegalMove, ParseMoveError};

    /// The textbook three-ply example (Russell & Norvig, "Artificial
    /// Intelligence: A Modern Approach", figure 5.2 / 5.5): MAX chooses
    /// among three MIN nodes whose leaves are (3, 12, 8), (2, 4, 6) and
    /// (14, 5, 2). Minimax value 3, first move chosen; alpha-beta prunes
    /// the leaves 4 and 6 (after seeing 2 in the second MIN node) and
    /// nothing else.
    pub(crate) struct Textbook;

    const LEAVES: [[Value; 3]; 3] = [[3, 12, 8], [2, 4, 6], [14, 5, 2]];

    impl Game for Textbook {
        type State = Vec<usize>;
        type Move = usize;
        fn initial_state(&self) -> Vec<usize> {
            Vec::new()
        }
        fn legal_moves(&self, s: &Vec<usize>) -> Vec<usize> {
            if s.len() < 2 {
                vec![0, 1, 2]
            } else {
                vec![]
            }
        }
        fn next_state(&self, s: &Vec<usize>, m: &usize) -> Result<Vec<usize>, IllegalMove> {
            if s.len() >= 2 || *m > 2 {
                return Err(IllegalMove::new(m.to_string(), "no such branch"));
            }
            let mut next = s.clone();
            next.push(*m);
            Ok(next)
        }
        fn game_status(&self, s: &Vec<usize>) -> Status {
            match s.len() {
                0 => Status::Ongoing(Player::P1),
                1 => Status::Ongoing(Player::P2),
                _ => Status::Win(Player::P1),
            }
        }
        fn estimate_value(&self, _s: &Vec<usize>) -> Value {
            0
        }
        fn payoff(&self, s: &Vec<usize>, status: Status) -> Value {
            match status {
                Status::Ongoing(_) => 0,
                _ => LEAVES[s[0]][s[1]],
            }
        }
        fn max_payoff(&self) -> Value {
            14
        }
        fn string_of_state(&self, s: &Vec<usize>) -> String {
            format!("{s:?}")
        }
        fn string_of_move(&self, m: &usize) -> String {
            ["a", "b", "c"][*m].to_owned()
        }
        fn move_of_string(&self, text: &str) -> Result<usize, ParseMoveError> {
            ["a", "b", "c"]
                .iter()
                .position(|t| *t == text)
                .ok_or_else(|| ParseMoveError::new(text, "expected a, b or c"))
        }
        fn max_game_length(&self) -> usize {
            2
        }
    }

    fn cuts(node: &Node, path: &str, out: &mut Vec<String>) {
        for c in &node.children {
            let p = format!("{path}{}", c.mv.as_deref().unwrap_or(""));
            if c.cut {
                out.push(p.clone());
            }
            cuts(c, &p, out);
        }
    }

    #[test]
    fn textbook_tree_has_the_published_values_and_cuts() {
        let root = build(&Textbook, &Vec::new(), 2, true).unwrap();
        assert_eq!(root.value, 3);
        assert_eq!(
            root.children.iter().map(|c| c.value).collect::<Vec<_>>(),
            [3, 2, 2]
        );
        assert!(root.children[0].chosen && !root.children[1].chosen);
        assert!(root.children[0].children[0].chosen, "MIN picks the leaf 3");
        let mut cut = Vec::new();
        cuts(&root, "", &mut cut);
        assert_eq!(cut, ["bb", "bc"]);
    }

    #[test]
    fn without_alpha_beta_nothing_is_cut() {
        let root = build(&Textbook, &Vec::new(), 2, false).unwrap();
        let mut cut = Vec::new();
        cuts(&root, "", &mut cut);
        assert!(cut.is_empty());
    }

    fn check_values(node: &Node) {
        let values = node.children.iter().map(|c| c.value);
        match node.kind {
            NodeKind::Max => assert_eq!(Some(node.value), values.max(), "{node:?}"),
            NodeKind::Min => assert_eq!(Some(node.value), values.min(), "{node:?}"),
            NodeKind::End(_) | NodeKind::Horizon => assert!(node.children.is_empty()),
        }
        node.children.iter().for_each(check_values);
    }

    #[test]
    fn every_nim_tree_is_consistent_and_alpha_beta_agrees_at_the_root() {
        for piles in ["3", "5", "7", "2,2", "1,3"] {
            for rule in ["misere", "normal"] {
                let options = game_api::Options::new()
                    .with("piles", piles)
                    .with("rule", rule);
                let game = <nim::Nim as game_api::Configurable>::from_options(&options).unwrap();
                for depth in 1..=4 {
                    let mut root = build(&game, &game.initial_state(), depth, false).unwrap();
                    check_values(&root);
                    let ab = mark_cuts(&mut root, Value::MIN, Value::MAX);
                    assert_eq!(ab, root.value, "piles={piles} rule={rule} depth={depth}");
                }
            }
        }
    }

    #[test]
    fn the_chosen_path_wins_nim_when_the_theory_says_so() {
        // Misère Nim, one pile, take 1 or 2: the player to move loses
        // exactly when stones % 3 == 1. From 7 stones player 2 wins; from 6,
        // player 1 wins by taking 2 (leaving 4, and 4 % 3 == 1).
        let g7 = <nim::Nim as game_api::Configurable>::from_options(
            &game_api::Options::new().with("piles", 7),
        )
        .unwrap();
        assert!(build(&g7, &g7.initial_state(), 7, false).unwrap().value < 0);
        let g6 = <nim::Nim as game_api::Configurable>::from_options(
            &game_api::Options::new().with("piles", 6),
        )
        .unwrap();
        let root = build(&g6, &g6.initial_state(), 6, false).unwrap();
        assert!(root.value > 0);
        let chosen = root.children.iter().find(|c| c.chosen).unwrap();
        assert_eq!(chosen.mv.as_deref(), Some("2"));
    }

    #[test]
    fn large_trees_are_refused_with_a_message() {
        let game = connect4::Connect4::default();
        let err = build(&game, &game.initial_state(), 4, false).unwrap_err();
        assert_eq!(err, TreeError::TooLarge { depth: 4 });
        assert!(err.to_string().contains("--depth"), "{err}");
        assert_eq!(
            build(&game, &game.initial_state(), 0, false).unwrap_err(),
            TreeError::ZeroDepth
        );
    }
}
