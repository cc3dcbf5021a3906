//! A small RFC 4180 reader for the reference CSV files and the embedded HS nomenclature.
//! on the `csv` crate and the files are small, so a reader of our own keeps the
//! dependency list as it is. It understands quoted fields (with `""` for a quote and line
//! breaks inside quotes), `\n` and `\r\n` line ends, and a leading UTF-8 BOM.

/// One record with the 1-based line on which it starts (for error messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub line: usize,
    pub fields: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct CsvError {
    pub line: usize,
    pub message: String,
}

/// Splits `text` into records. Blank lines are skipped.
pub fn parse(text: &str) -> Result<Vec<Record>, CsvError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = Vec::new();
    let mut fields: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut in_quotes = false;
    // Whether the current field was quoted: text after the closing quote is an error.
    let mut quoted = false;
    let mut line = 1;
    let mut record_line = 1;
    let mut chars = text.chars().peekable();

    while let Some(c) = chars.next() {
        if in_quotes {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => in_quotes = false,
                '\n' => {
                    line += 1;
                    field.push(c);
                }
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' if field.is_empty() && !quoted => {
                in_quotes = true;
                quoted = true;
            }
            '"' => {
                return Err(CsvError {
                    line,
                    message: "a quote inside an unquoted field".into(),
                });
            }
            ',' => {
                fields.push(std::mem::take(&mut field));
                quoted = false;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                fields.push(std::mem::take(&mut field));
                quoted = false;
                push_record(&mut records, &mut fields, record_line);
                line += 1;
                record_line = line;
            }
            _ if quoted => {
                return Err(CsvError {
                    line,
                    message: "text after a closing quote".into(),
                });
            }
            _ => field.push(c),
        }
    }
    if in_quotes {
        return Err(CsvError {
            line: record_line,
            message: "a quoted field is not closed".into(),
        });
    }
    if !field.is_empty() || !fields.is_empty() || quoted {
        fields.push(field);
        push_record(&mut records, &mut fields, record_line);
    }
    Ok(records)
}

fn push_record(records: &mut Vec<Record>, fields: &mut Vec<String>, line: usize) {
    let fields = std::mem::take(fields);
    // A blank line reads as one empty field: not a record.
    if fields.len() == 1 && fields[0].is_empty() {
        return;
    }
    records.push(Record { line, fields });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> Vec<Vec<String>> {
        parse(text)
            .map(|r| r.into_iter().map(|r| r.fields).collect())
            .unwrap_or_default()
    }

    #[test]
    fn plain_quoted_and_crlf() {
        let got = fields("\u{feff}a,b\r\n1,\"x, \"\"y\"\"\"\r\n\n2,\n");
        assert_eq!(
            got,
            vec![vec!["a", "b"], vec!["1", "x, \"y\""], vec!["2", ""]]
        );
    }

    #[test]
    fn newline_inside_quotes_and_no_final_newline() {
        let records = parse("a\n\"l1\nl2\"\nz").unwrap_or_default();
        assert_eq!(records.len(), 3);
        assert_eq!(records[1].fields, vec!["l1\nl2"]);
        assert_eq!(records[2].line, 4);
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(parse("a\nb\"c\n").err().map(|e| e.line), Some(2));
        assert_eq!(parse("a\n\"open\n").err().map(|e| e.line), Some(2));
        assert_eq!(parse("\"a\"b\n").err().map(|e| e.line), Some(1));
    }
}
