//! The tree in Graphviz's DOT language (`dot -Tpng tree.dot > tree.png`):
//! max nodes are triangles pointing up, min nodes point down, ends are
//! boxes, depth-limit estimates are ellipses; the chosen path is thick and
//! red, cut branches are dashed and grey.

use super::text::label;
use super::{Node, NodeKind, Tree};
use std::fmt::Write;

/// The tree as a DOT digraph.
#[must_use]
pub fn to_dot(tree: &Tree) -> String {
    let mut out = String::new();
    out.push_str("digraph tree {\n");
    let _ = writeln!(out, "  label={};", quote(&tree.title));
    out.push_str(
        "  labelloc=t;\n  node [fontname=\"Helvetica\", style=filled, fillcolor=white];\n",
    );
    out.push_str("  edge [fontname=\"Helvetica\"];\n");
    let mut next_id = 0;
    node(&mut out, &tree.root, tree, &mut next_id);
    out.push_str("}\n");
    out
}

/// A DOT string literal.
fn quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Writes `n` and its shown subtree; returns its id.
fn node(out: &mut String, n: &Node, tree: &Tree, next_id: &mut usize) -> usize {
    let id = *next_id;
    *next_id += 1;
    let shape = match n.kind {
        NodeKind::Max => "triangle",
        NodeKind::Min => "invtriangle",
        NodeKind::End(_) => "box",
        NodeKind::Horizon => "ellipse",
    };
    let style = if n.cut {
        ", color=gray60, fontcolor=gray50, style=\"filled,dashed\""
    } else if n.chosen {
        ", color=red3, penwidth=3, fillcolor=mistyrose"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "  n{id} [shape={shape}, label={}{style}];",
        quote(&label(n, tree))
    );
    for child in n.shown_children() {
        let child_id = node(out, child, tree, next_id);
        let mv = quote(child.mv.as_deref().unwrap_or_default());
        let style = if child.cut {
            ", style=dashed, color=gray60, fontcolor=gray50, taillabel=\"cut\""
        } else if child.chosen {
            ", color=red3, penwidth=3"
        } else {
            ""
        };
        let _ = writeln!(out, "  n{id} -> n{child_id} [label={mv}{style}];");
    }
    id
}
