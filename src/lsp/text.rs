//! Positions: LSP `Position`s count UTF-16 code units from the start of a line; spans are byte
//! ranges. A [`LineIndex`] converts between the two for one text, and never fails: a position
//! past the end of a line or of the text clamps to it, one inside a surrogate pair or a
//! multi-byte character rounds down to the character's start.

use lsp_types::{Position, Range};

/// Line starts of one text (line ends: LF, CRLF and a bare CR, as [`crate::source::SourceFile`]
/// counts them).
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// The index of `text`.
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        let bytes = text.as_bytes();
        for (i, b) in bytes.iter().enumerate() {
            if *b == b'\n' || (*b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
                starts.push(i + 1);
            }
        }
        LineIndex { starts }
    }

    /// Byte range of 0-based line `line` without its line end (`None` past the last line).
    fn line_range(&self, text: &str, line: usize) -> Option<(usize, usize)> {
        let start = *self.starts.get(line)?;
        let mut end = self.starts.get(line + 1).copied().unwrap_or(text.len());
        let b = text.as_bytes();
        while end > start && matches!(b.get(end - 1), Some(b'\n' | b'\r')) {
            end -= 1;
        }
        Some((start, end))
    }

    /// The LSP position of byte `offset` (clamped to the text, rounded down to a character).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let character: usize = text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, character as u32)
    }

    /// The byte offset of an LSP position: `None` past the last line; a column past the end of
    /// its line gives the line's end, one inside a character gives the character's start.
    pub fn offset(&self, text: &str, pos: Position) -> Option<usize> {
        let (start, end) = self.line_range(text, pos.line as usize)?;
        let mut units = 0usize;
        for (i, c) in text[start..end].char_indices() {
            let next = units + c.len_utf16();
            if next > pos.character as usize {
                return Some(start + i);
            }
            units = next;
        }
        Some(end)
    }

    /// The LSP range of byte range `start..end`.
    pub fn range(&self, text: &str, start: usize, end: usize) -> Range {
        Range::new(
            self.position(text, start),
            self.position(text, end.max(start)),
        )
    }

    /// The 0-based line of byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// Byte offset of the start of 0-based line `line` (the text's end past the last line).
    pub fn line_start(&self, text: &str, line: usize) -> usize {
        self.starts.get(line).copied().unwrap_or(text.len())
    }
}

/// Apply one content change (a range replaced by text, or the whole text) to `text`. A range
/// past the end clamps to the end; a start after the end is taken as empty at the start.
pub fn apply_change(text: &mut String, range: Option<Range>, new_text: &str) {
    let Some(range) = range else {
        *text = new_text.to_string();
        return;
    };
    let index = LineIndex::new(text);
    let start = index.offset(text, range.start).unwrap_or(text.len());
    let end = index
        .offset(text, range.end)
        .unwrap_or(text.len())
        .max(start);
    text.replace_range(start..end, new_text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_count_surrogate_pairs_and_multibyte_characters() {
        // `Å` is 2 bytes and 1 UTF-16 unit; `𝛼` is 4 bytes and 2 units.
        let text = "a: Å𝛼x\nb: 1\r\nc";
        let ix = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(ix.position(text, x), Position::new(0, 6));
        assert_eq!(ix.offset(text, Position::new(0, 6)), Some(x));
        // Inside the surrogate pair: the character's start.
        let alpha = text.find('𝛼').unwrap();
        assert_eq!(ix.offset(text, Position::new(0, 5)), Some(alpha));
        // Past the line end: the line end (before CRLF).
        assert_eq!(
            ix.offset(text, Position::new(1, 99)),
            Some(text.find("\r\n").unwrap())
        );
        assert_eq!(ix.offset(text, Position::new(2, 0)), Some(text.len() - 1));
        assert_eq!(ix.offset(text, Position::new(3, 0)), None);
        // An offset inside a multi-byte character rounds down.
        assert_eq!(ix.position(text, alpha + 1), Position::new(0, 4));
        assert_eq!(ix.position(text, 999), Position::new(2, 1));
    }

    #[test]
    fn changes_apply_by_utf16_range_and_clamp() {
        let mut t = "id: Å𝛼\nx: 1\n".to_string();
        apply_change(
            &mut t,
            Some(Range::new(Position::new(0, 5), Position::new(0, 7))),
            "β",
        );
        assert_eq!(t, "id: Åβ\nx: 1\n");
        apply_change(
            &mut t,
            Some(Range::new(Position::new(9, 0), Position::new(12, 3))),
            "y: 2\n",
        );
        assert_eq!(t, "id: Åβ\nx: 1\ny: 2\n");
        apply_change(&mut t, None, "whole");
        assert_eq!(t, "whole");
    }
}
