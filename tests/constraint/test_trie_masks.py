"""Token tries, token classes and the packed per-node masks (XGrammar layout)."""

from __future__ import annotations

import pytest
import torch

from engine.constraint import SpanAutomaton, TokenTrie, TokenVocab
from kernels import allowed_ids_to_bitmask, bitmask_width, unpack_bitmask


@pytest.mark.parametrize(
    ("seqs", "path", "node_terminal", "children"),
    [
        ([[5, 7], [5, 9, 1]], [5], False, [7, 9]),
        ([[5, 7], [5, 9, 1]], [5, 7], True, []),
        ([[5], [5, 6]], [5], True, [6]),
        ([[3]], [], False, [3]),
    ],
    ids=["inner", "leaf", "terminal-with-child", "root"],
)
def test_trie_walk(seqs, path, node_terminal, children) -> None:
    t = TokenTrie(seqs)
    node = t.walk(path)
    assert node is not None
    assert t.terminal[node] is node_terminal
    assert sorted(t.children_ids(node)) == children
    assert t.children_bits(node) == sum(1 << c for c in children)
    assert t.walk([*path, 99]) is None


@pytest.mark.parametrize(
    ("text", "classes"),
    [
        (" ibuprofen", {"space", "word_lead", "boundary", "tail_alnum"}),
        ("uprofen", {"word_lead", "tail_alnum"}),
        (" 12", {"space", "word_lead", "digit", "boundary", "tail_alnum"}),
        (".", {"boundary"}),
        (" (", {"space", "boundary"}),
        ("\ufffd", {"tail_alnum"}),  # half of a UTF-8 character: never a word boundary
    ],
    ids=["space-word", "continuation", "number", "punct", "space-punct", "partial-utf8"],
)
def test_token_classes(text: str, classes: set[str]) -> None:
    v = TokenVocab(["<s>", text], special={0})
    for cls in ("space", "word_lead", "digit", "boundary", "tail_alnum"):
        assert v.is_(getattr(v, cls), 1) is (cls in classes), cls
    assert v.is_(v.special, 0) and v.is_(v.boundary, 0)


def test_vocab_texts_match_decoding(tok, vocab) -> None:
    for i in range(3, 2048, 97):
        assert vocab.texts[i] == tok.decode([i]) or "\ufffd" in vocab.texts[i]
    assert vocab.texts[1] == "" and vocab.is_(vocab.special, 2)


def test_vocab_wider_than_tokenizer_is_special(tok) -> None:
    v = TokenVocab.from_tokenizer(tok, 2050)
    assert v.size == 2050 and v.is_(v.special, 2049) and v.texts[2049] == ""


def test_packed_node_masks_are_xgrammar_layout(automaton) -> None:
    """One packed int32 row per trie node, sized to the logit width, equal to the children."""
    A, table = automaton.allowed, automaton.packed_table
    assert table.dtype.str == "<i4" and table.shape == (3 + len(A), bitmask_width(2048))
    for a in range(1, len(A)):
        if A.terminal[a]:
            continue
        expected = allowed_ids_to_bitmask([list(A.children_ids(a))], 2048)
        assert torch.equal(torch.from_numpy(table[3 + a].copy())[None], expected)


def test_terminal_node_mask_adds_closing_tokens(automaton, tok) -> None:
    node = automaton.allowed.walk(tok.encode(" warfarin", add_bos=False))
    allowed = unpack_bitmask(torch.from_numpy(automaton.packed(3 + node).copy())[None], 2048)[0]
    for text, ok in [
        (".", True),
        (" is", True),
        ("</s>", True),
        ("s", False),
        (" valsartan", False),
    ]:
        tid = tok.tok.token_to_id(text) if text == "</s>" else tok.encode(text, add_bos=False)[0]
        assert bool(allowed[tid]) is ok, text


def test_mask_bits_and_deny_rows_agree(automaton) -> None:
    for sid in range(automaton.n_states):
        deny = automaton.deny_row(sid)
        assert automaton.mask_bits(sid) == sum(1 << int(i) for i in (~deny).nonzero()[0])


def test_empty_allowed_set_masks_every_opener(lexicon, first_block) -> None:
    aut = SpanAutomaton(lexicon, [])
    assert first_block(aut, " The dose of warfarin") == " warfarin"
    assert first_block(aut, " The dose is 12") == " 12"
    assert first_block(aut, " The dose of the day.") is None
