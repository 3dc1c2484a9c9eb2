"""End-to-end test of `schemarouter lsp` with a real LSP client (pytest-lsp, PyPI).

Run by tests/lsp.rs (`cargo test --test lsp`) with SCHEMAROUTER_BIN set to the binary under
test; it drives the server over stdio through initialize, didOpen, didChange,
publishDiagnostics, hover, definition, references, completion, codeAction and shutdown, on
the fixture project beside this file (edits stay in the editor's memory: no file is written).
"""

import asyncio
import os
import pathlib

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

PROJECT = pathlib.Path(__file__).parent / "project"
LAB = PROJECT / "schemas" / "lab.yaml"
LAB_URI = LAB.resolve().as_uri()
INTENTS_URI = (PROJECT / "intents" / "intents.yaml").resolve().as_uri()
CONCEPTS_URI = (PROJECT / "aliases" / "concepts.yaml").resolve().as_uri()
RULES_URL = "https://example.org/docs/rules.md"


def utf16(s: str) -> int:
    """Length of `s` in UTF-16 code units (LSP columns)."""
    return len(s.encode("utf-16-le")) // 2


def position_of(text: str, needle: str, nth: int = 0, delta: int = 0) -> types.Position:
    """The LSP position of the `nth` occurrence of `needle` (plus `delta` characters)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += delta
    line = text.count("\n", 0, at)
    start = text.rfind("\n", 0, at) + 1
    return types.Position(line=line, character=utf16(text[start:at]))


def recording_client() -> LanguageClient:
    """pytest-lsp's test client that also keeps every publishDiagnostics in order (waiting for
    the next notification alone could miss one that arrived before the wait began)."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = []

    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams):
        client.diagnostics[params.uri] = params.diagnostics
        client.published.append(params)

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
    register_lsp_features(client, features)
    return client


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[os.environ["SCHEMAROUTER_BIN"], "lsp"], client_factory=recording_client
    ),
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=PROJECT.resolve().as_uri(),
            initialization_options={"rulesUrl": RULES_URL},
        )
    )
    yield
    await lsp_client.shutdown_session()


async def diagnostics_for(client: LanguageClient, uri: str, version: int):
    """Wait (up to 60 s) for the publishDiagnostics of `uri` at `version`."""
    for _ in range(6000):
        for params in client.published:
            if params.uri == uri and params.version == version:
                return list(params.diagnostics)
        await asyncio.sleep(0.01)
    raise AssertionError(f"no diagnostics for {uri} at version {version}")


@pytest.mark.asyncio
async def test_a_session_over_stdio(client: LanguageClient):
    text = LAB.read_text(encoding="utf-8")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=LAB_URI, language_id="yaml", version=1, text=text
            )
        )
    )
    assert await diagnostics_for(client, LAB_URI, 1) == []

    # Type a reference to an undeclared concept whose id holds a surrogate pair (`𝛼` is two
    # UTF-16 code units and four bytes).
    end = position_of(text, "band_gap]", delta=len("band_gap"))
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=LAB_URI, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=end, end=end), text=", 𝛼_gap"
                )
            ],
        )
    )
    diags = await diagnostics_for(client, LAB_URI, 2)
    assert [(d.code, d.severity) for d in diags] == [("SR103", types.DiagnosticSeverity.Error)]
    line = end.line
    assert diags[0].range == types.Range(
        start=types.Position(line=line, character=end.character + 2),
        end=types.Position(line=line, character=end.character + 2 + utf16("𝛼_gap")),
    )
    assert diags[0].code_description.href == RULES_URL + "#dangling-reference"
    assert diags[0].source == "schemarouter"
    assert diags[0].message.startswith("field `gap` references undeclared concept `𝛼_gap`")
    edited = text.replace("[band_gap]", "[band_gap, 𝛼_gap]")

    # Hover: the finding's rule documentation, a field's unit with its SI factor, a concept.
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=LAB_URI),
            position=position_of(edited, "𝛼_gap", delta=3),
        )
    )
    assert "**SR103 `dangling-reference`**" in hover.contents.value
    assert "## What it finds" in hover.contents.value
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=LAB_URI),
            position=position_of(edited, "name: gap", delta=7),
        )
    )
    assert hover.contents.value.startswith("**response field** `gap` of tool `lab`: number")
    assert "- unit: `eV`: 1 eV = 1.602176634e-19 m^2·kg/s^2" in hover.contents.value
    assert "- source type: `experimental` (the tool's)" in hover.contents.value
    assert "- licence: `CC-BY-4.0`; attribution: The Lab (the tool's)" in hover.contents.value
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=LAB_URI),
            position=position_of(edited, "[band_gap", delta=2),
        )
    )
    assert hover.contents.value.startswith("**concept** `band_gap` (Response)")

    # Definition of the concept, references of the group across files.
    concepts_text = (PROJECT / "aliases" / "concepts.yaml").read_text(encoding="utf-8")
    definition = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=LAB_URI),
            position=position_of(edited, "[band_gap", delta=2),
        )
    )
    start = position_of(concepts_text, "band_gap")
    assert [(d.uri, d.range) for d in definition] == [
        (
            CONCEPTS_URI,
            types.Range(
                start=start,
                end=types.Position(line=start.line, character=start.character + 8),
            ),
        )
    ]
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=LAB_URI),
            position=position_of(edited, "[electronic", delta=3),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    intents_text = (PROJECT / "intents" / "intents.yaml").read_text(encoding="utf-8")
    assert sorted((r.uri, r.range.start.line) for r in refs) == sorted(
        [
            (LAB_URI, position_of(edited, "[electronic").line),
            (INTENTS_URI, position_of(intents_text, "id: electronic").line),
            (INTENTS_URI, position_of(intents_text, "[electronic]").line),
        ]
    )

    # Completion: concept ids in a field's `concepts`, rules in a suppression comment.
    items = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=LAB_URI),
            position=position_of(edited, "𝛼_gap", delta=0),
        )
    )
    labels = [i.label for i in (items.items if hasattr(items, "items") else items)]
    assert labels == ["band_gap", "formula"]

    # Put the text back: the file's diagnostics are cleared.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=LAB_URI, version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    assert await diagnostics_for(client, LAB_URI, 3) == []

    # A YAML 1.1 boolean spelling as a title: code actions offer its fix (quote it, safe and
    # preferred), a suppression with a reason above the line, and every safe fix of the file.
    title = position_of(text, "Laboratoire")
    title_end = types.Position(line=title.line, character=title.character + utf16("Laboratoire — Å notebook"))
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=LAB_URI, version=4),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=title, end=title_end), text="yes"
                )
            ],
        )
    )
    diags = await diagnostics_for(client, LAB_URI, 4)
    yes_range = types.Range(
        start=title, end=types.Position(line=title.line, character=title.character + 3)
    )
    assert [(d.code, d.range) for d in diags] == [("SR016", yes_range)]
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=LAB_URI),
            range=yes_range,
            context=types.CodeActionContext(diagnostics=diags),
        )
    )
    assert [(a.title, a.kind, a.is_preferred) for a in actions] == [
        ("quote `yes`", types.CodeActionKind.QuickFix, True),
        ("Suppress `yaml11-boolean` here (with a reason)", types.CodeActionKind.QuickFix, None),
        ("Apply every safe fix in this file", "source.fixAll.schemarouter", None),
    ]
    assert [(e.range, e.new_text) for e in actions[0].edit.changes[LAB_URI]] == [
        (yes_range, '"yes"')
    ]
    assert [(e.range, e.new_text) for e in actions[1].edit.changes[LAB_URI]] == [
        (
            types.Range(
                start=types.Position(line=title.line, character=0),
                end=types.Position(line=title.line, character=0),
            ),
            "# schemarouter: allow(yaml11-boolean) -- TODO: say why this finding is kept\n",
        )
    ]
    (whole,) = actions[2].edit.changes[LAB_URI]
    assert whole.new_text == text.replace("Laboratoire — Å notebook", '"yes"')

    # A suppression comment completes rule names and codes.
    comment = "# schemarouter: allow(dangl"
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=LAB_URI, version=5),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=0, character=0),
                        end=types.Position(line=0, character=0),
                    ),
                    text=comment + "\n",
                )
            ],
        )
    )
    items = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=LAB_URI),
            position=types.Position(line=0, character=len(comment)),
        )
    )
    labels = [i.label for i in (items.items if hasattr(items, "items") else items)]
    assert "dangling-reference" in labels and "SR103" in labels
    (item,) = [i for i in items if i.label == "dangling-reference"]
    assert item.text_edit.range == types.Range(
        start=types.Position(line=0, character=len("# schemarouter: allow(")),
        end=types.Position(line=0, character=len(comment)),
    )


@pytest.mark.asyncio
async def test_unknown_documents_and_bad_positions_get_empty_answers(client: LanguageClient):
    outside = "file:///nonexistent/elsewhere/x.yaml"
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=outside),
            position=types.Position(line=0, character=0),
        )
    )
    assert hover is None
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=LAB_URI, language_id="yaml", version=1, text="id: [unclosed\n"
            )
        )
    )
    diags = await diagnostics_for(client, LAB_URI, 1)
    assert [d.code for d in diags] == ["SR001"]
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=LAB_URI),
            position=types.Position(line=999, character=999),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert refs is None
    items = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=LAB_URI),
            position=types.Position(line=0, character=9999),
        )
    )
    assert (items.items if hasattr(items, "items") else items) == []
