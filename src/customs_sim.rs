//! `clearway customs-sim`: a simulator of customs on the exchange folder (docs/customs.md),
//! so that the demo moves by itself and the tests have a counterpart that is not Clearway.
//!
//! It watches `outbox/` for declaration messages, checks each against
//! `docs/schemas/DecMessage.xsd` (with `xmllint` when installed, else by the message's
//! required elements), answers a broken one with `E` (the reason in `NOTE`), and answers the
//! others with receipts after a delay each, written the way a gateway writes (a temporary
//! name, then a rename into `inbox/`). The scenario of each message comes from the first
//! rule whose pattern matches its `BillNo` (the tracking number), else from a seeded draw:
//! mostly `L G P R`; some `L C P R` (inspection), `L T P R` (taxes: duty 10 %, VAT 13 % of
//! value and duty, consumption tax 15 % on chapter 33, the value taken as CNY), `L Sp1`
//! (then `P R` once a supplement `<CopNo>.sup<N>.xml` arrives) and `E`.
//!
//! A rule file has one rule a line, `PATTERN SCENARIO` (`#` starts a comment); the pattern is
//! the tracking number with `*` for any run of characters; scenarios: `release`, `inspect`,
//! `tax`, `sp1`, `reject`, `change` (Z), `fail` (Y). `--misbehave` makes it write every
//! receipt twice (`duplicates`), a message's receipts at once in reverse order (`reverse`),
//! each receipt file half first and the rest two seconds later without a rename (`half`), or
//! a malformed file beside each message's receipts (`malformed`).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use chrono::{FixedOffset, Utc};
use rand::{Rng, SeedableRng};

/// `clearway customs-sim` settings.
#[derive(Debug, Clone, clap::Args)]
pub struct SimArgs {
    /// The exchange folder (default: CLEARWAY_CUSTOMS_DIR).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// The seed of the scenario draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds between a message and its first receipt, and between two receipts.
    #[arg(long, default_value_t = 2000)]
    pub delay_ms: u64,
    /// A rule file pinning scenarios by tracking-number pattern.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// `duplicates`, `reverse`, `half` or `malformed`.
    #[arg(long)]
    pub misbehave: Option<String>,
    /// The schema messages are checked against.
    #[arg(long, default_value = "docs/schemas/DecMessage.xsd")]
    pub schema: PathBuf,
    /// Answer what is in outbox/ now, write every receipt due, and exit.
    #[arg(long, default_value_t = false)]
    pub once: bool,
}

/// A scenario: the codes customs answers with, in order.
pub fn scenario_codes(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "release" => &["L", "G", "P", "R"],
        "inspect" => &["L", "C", "P", "R"],
        "tax" => &["L", "T", "P", "R"],
        "sp1" => &["L", "Sp1"],
        "reject" => &["E"],
        "change" => &["L", "Z"],
        "fail" => &["Y"],
        _ => return None,
    })
}

/// Rules: (pattern, scenario).
pub fn parse_rules(text: &str) -> anyhow::Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(p), Some(s)) = (parts.next(), parts.next()) else {
            anyhow::bail!("rule line {}: expected PATTERN SCENARIO", n + 1);
        };
        if scenario_codes(s).is_none() {
            anyhow::bail!("rule line {}: unknown scenario {s}", n + 1);
        }
        out.push((p.to_string(), s.to_string()));
    }
    Ok(out)
}

/// `*` matches any run of characters.
pub fn matches(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let mut rest = text;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            let Some(r) = rest.strip_prefix(part) else {
                return false;
            };
            rest = r;
        } else if i == parts.len() - 1 {
            return rest.ends_with(part);
        } else {
            let Some(at) = rest.find(part) else {
                return false;
            };
            rest = &rest[at + part.len()..];
        }
    }
    true
}

fn element<'a>(xml: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    let start = xml.find(&open)? + open.len();
    let end = xml[start..].find(&close)? + start;
    Some(&xml[start..end])
}

fn elements<'a>(xml: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(s) = rest.find(&open) {
        let from = s + open.len();
        let Some(e) = rest[from..].find(&close) else {
            break;
        };
        out.push(&rest[from..from + e]);
        rest = &rest[from + e + close.len()..];
    }
    out
}

/// Why a message is broken, or `None`: `xmllint --schema` when installed, else the required
/// elements.
pub fn check(path: &Path, xml: &str, schema: &Path) -> Option<String> {
    if schema.exists()
        && let Ok(out) = std::process::Command::new("xmllint")
            .arg("--noout")
            .arg("--schema")
            .arg(schema)
            .arg(path)
            .output()
    {
        if out.status.success() {
            return None;
        }
        let text = String::from_utf8_lossy(&out.stderr);
        let line = text
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("schema check failed");
        return Some(line.chars().take(400).collect());
    }
    if schema.file_name().is_some_and(|n| n == "DecSupplement.xsd") {
        let whole = xml.contains("<DecSupplement>") && element(xml, "COP_NO").is_some();
        return (!whole).then(|| "not a DecSupplement with a COP_NO".into());
    }
    if !xml.contains("<DecMessage>") {
        return Some("the root element is not DecMessage".into());
    }
    for needed in ["CopNo", "IEFlag", "BillNo", "CodeTS", "GName", "DeclTotal"] {
        if element(xml, needed).is_none() {
            return Some(format!("{needed} is missing"));
        }
    }
    if elements(xml, "CodeTS")
        .iter()
        .any(|c| c.len() != 10 || !c.bytes().all(|b| b.is_ascii_digit()))
    {
        return Some("CodeTS must be 10 digits".into());
    }
    if element(xml, "TransMode")
        .is_some_and(|t| !matches!(t, "1" | "2" | "3" | "4" | "5" | "6" | "7"))
    {
        return Some("TransMode must be a 成交方式 code 1-7".into());
    }
    None
}

/// Duty (A), VAT (L) and consumption tax (Y) on the message's goods, in CNY.
pub fn taxes(xml: &str) -> Vec<(&'static str, String)> {
    let mut value = 0f64;
    let mut excise = 0f64;
    for line in elements(xml, "DecList") {
        let total: f64 = element(line, "DeclTotal")
            .and_then(|t| t.parse().ok())
            .unwrap_or(0.0);
        value += total;
        if element(line, "CodeTS").is_some_and(|c| c.starts_with("33")) {
            excise += total * 0.15;
        }
    }
    let duty = value * 0.10;
    let vat = (value + duty + excise) * 0.13;
    let mut out = vec![("A", format!("{duty:.2}")), ("L", format!("{vat:.2}"))];
    if excise > 0.0 {
        out.push(("Y", format!("{excise:.2}")));
    }
    out
}

fn receipt_xml(cop: &str, code: &str, at: chrono::DateTime<FixedOffset>, extra: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DEC_RESULT>\n  <COP_NO>{cop}</COP_NO>\n  <CHANNEL>{code}</CHANNEL>\n  <NOTICE_DATE>{}</NOTICE_DATE>\n{extra}</DEC_RESULT>\n",
        at.format("%Y-%m-%dT%H:%M:%S%:z")
    )
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// One receipt file to write at `due`.
struct Due {
    due: Instant,
    name: String,
    body: String,
    half: bool,
}

struct Sim {
    args: SimArgs,
    dir: PathBuf,
    rules: Vec<(String, String)>,
    rng: rand::rngs::StdRng,
    answered: HashSet<String>,
    /// CopNo -> entry number, for Sp1's later release.
    waiting_supplement: HashMap<String, String>,
    queue: Vec<Due>,
    serial: u64,
}

impl Sim {
    fn draw(&mut self) -> &'static str {
        match self.rng.gen_range(0..100) {
            0..=59 => "release",
            60..=71 => "inspect",
            72..=83 => "tax",
            84..=91 => "sp1",
            _ => "reject",
        }
    }

    fn push(&mut self, at: Instant, cop: &str, code: &str, body: String) {
        self.serial += 1;
        let half = self.args.misbehave.as_deref() == Some("half");
        let name = format!("{cop}-{:04}-{code}.xml", self.serial);
        self.queue.push(Due {
            due: at,
            name: name.clone(),
            body: body.clone(),
            half,
        });
        if self.args.misbehave.as_deref() == Some("duplicates") {
            self.queue.push(Due {
                due: at,
                name: format!("dup-{name}"),
                body,
                half,
            });
        }
    }

    fn answer(&mut self, path: &Path) -> anyhow::Result<()> {
        let xml = std::fs::read_to_string(path).unwrap_or_default();
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let now = Instant::now();
        let cst = FixedOffset::east_opt(8 * 3600).expect("offset");
        let step = Duration::from_millis(self.args.delay_ms);
        // A supplement: checked against DecSupplement.xsd (beside the message's schema),
        // then what it answers is released. The entry number is the one given with the
        // Sp1, else the supplement's own (a simulator restarted in between forgot it).
        if let Some(cop) = name.split(".sup").next().filter(|_| name.contains(".sup")) {
            let cop = element(&xml, "COP_NO").unwrap_or(cop).to_string();
            let schema = self.args.schema.with_file_name("DecSupplement.xsd");
            if let Some(broken) = schema
                .exists()
                .then(|| check(path, &xml, &schema))
                .flatten()
            {
                let at = Utc::now().with_timezone(&cst);
                let note = format!(
                    "  <NOTE>补充资料校验失败 / supplement invalid: {}</NOTE>\n",
                    escape(&broken)
                );
                self.push(now + step, &cop, "E", receipt_xml(&cop, "E", at, &note));
                return Ok(());
            }
            let entry = self
                .waiting_supplement
                .remove(&cop)
                .or_else(|| element(&xml, "ENTRY_ID").map(str::to_string));
            let entry = entry
                .map(|e| format!("  <ENTRY_ID>{e}</ENTRY_ID>\n"))
                .unwrap_or_default();
            for (i, code) in ["P", "R"].iter().enumerate() {
                let at = Utc::now().with_timezone(&cst) + chrono::Duration::seconds(i as i64 + 1);
                let body = receipt_xml(&cop, code, at, &entry);
                self.push(now + step * (i as u32 + 1), &cop, code, body);
            }
            return Ok(());
        }
        let cop = element(&xml, "CopNo")
            .map(str::to_string)
            .unwrap_or_else(|| name.trim_end_matches(".xml").to_string());
        if let Some(broken) = check(path, &xml, &self.args.schema) {
            let at = Utc::now().with_timezone(&cst);
            let body = receipt_xml(
                &cop,
                "E",
                at,
                &format!(
                    "  <NOTE>报文校验失败 / message invalid: {}</NOTE>\n",
                    escape(&broken)
                ),
            );
            self.push(now + step, &cop, "E", body);
            return Ok(());
        }
        let bill = element(&xml, "BillNo").unwrap_or("").to_string();
        let pinned = self
            .rules
            .iter()
            .find(|(p, _)| matches(p, &bill))
            .map(|(_, s)| s.clone());
        let scenario = match pinned {
            Some(s) => s,
            None => self.draw().to_string(),
        };
        let codes = scenario_codes(&scenario).unwrap_or(&["L", "G", "P", "R"]);
        let entry = format!("2224{:014}", self.rng.gen_range(0..100_000_000_000_000u64));
        let unified = format!("I{:017}", self.rng.gen_range(0..100_000_000_000_000_000u64));
        let mut receipts = Vec::new();
        for (i, code) in codes.iter().enumerate() {
            let at = Utc::now().with_timezone(&cst) + chrono::Duration::seconds(i as i64);
            let mut extra = String::new();
            if *code != "E" && *code != "Y" {
                extra.push_str(&format!(
                    "  <ENTRY_ID>{entry}</ENTRY_ID>\n  <CUS_CIQ_NO>{unified}</CUS_CIQ_NO>\n"
                ));
            }
            match *code {
                "T" => {
                    extra.push_str("  <TAXES>\n");
                    for (t, a) in taxes(&xml) {
                        extra.push_str(&format!(
                            "    <TAX><TYPE>{t}</TYPE><AMOUNT>{a}</AMOUNT></TAX>\n"
                        ));
                    }
                    extra.push_str("  </TAXES>\n");
                }
                "C" => extra.push_str("  <NOTE>布控查验 / selected for inspection</NOTE>\n"),
                "Sp1" => {
                    extra.push_str("  <NOTE>请补充商业发票和装箱单 / please send the commercial invoice and packing list</NOTE>\n  <DOCS><DOC>commercialInvoice</DOC><DOC>packingList</DOC></DOCS>\n");
                    self.waiting_supplement.insert(cop.clone(), entry.clone());
                }
                "E" => extra
                    .push_str("  <NOTE>申报要素不全 / declaration elements incomplete</NOTE>\n"),
                "Z" => extra.push_str("  <NOTE>请修改净重 / correct the net weight</NOTE>\n"),
                "Y" => extra.push_str("  <NOTE>申报失败 / declaration failed</NOTE>\n"),
                _ => {}
            }
            receipts.push((*code, receipt_xml(&cop, code, at, &extra)));
        }
        if self.args.misbehave.as_deref() == Some("reverse") {
            receipts.reverse();
            for (code, body) in receipts {
                self.push(now + step, &cop, code, body);
            }
        } else {
            for (i, (code, body)) in receipts.into_iter().enumerate() {
                self.push(now + step * (i as u32 + 1), &cop, code, body);
            }
        }
        if self.args.misbehave.as_deref() == Some("malformed") {
            self.queue.push(Due {
                due: now + step,
                name: format!("{cop}-malformed.xml"),
                body: "<DEC_RESULT><COP_NO>".into(),
                half: false,
            });
        }
        Ok(())
    }

    /// Writes every receipt due by now.
    fn write_due(&mut self) -> anyhow::Result<()> {
        let now = Instant::now();
        let inbox = self.dir.join("inbox");
        let (due, later): (Vec<Due>, Vec<Due>) = self.queue.drain(..).partition(|d| d.due <= now);
        self.queue = later;
        for d in due {
            if d.half {
                let cut = d.body.len() / 2;
                std::fs::write(inbox.join(&d.name), &d.body[..cut])?;
                let (path, rest) = (inbox.join(&d.name), d.body[cut..].to_string());
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_secs(2));
                    use std::io::Write;
                    if let Ok(mut f) = std::fs::OpenOptions::new().append(true).open(&path) {
                        let _ = f.write_all(rest.as_bytes());
                    }
                });
                continue;
            }
            let tmp = inbox.join(format!(".{}.tmp", d.name));
            std::fs::write(&tmp, &d.body)?;
            std::fs::rename(&tmp, inbox.join(&d.name))?;
        }
        Ok(())
    }

    fn scan(&mut self) -> anyhow::Result<()> {
        let outbox = self.dir.join("outbox");
        let mut names: Vec<PathBuf> = std::fs::read_dir(&outbox)
            .with_context(|| format!("reading {}", outbox.display()))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                let n = p.file_name().unwrap_or_default().to_string_lossy();
                !n.starts_with('.') && n.ends_with(".xml")
            })
            .collect();
        names.sort();
        for path in names {
            let key = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if self.answered.insert(key) {
                self.answer(&path)?;
            }
        }
        Ok(())
    }
}

/// Runs the simulator until stopped (or, with `--once`, until what outbox/ holds now is
/// answered).
pub async fn run(args: SimArgs, default_dir: Option<PathBuf>) -> anyhow::Result<()> {
    let dir = args
        .dir
        .clone()
        .or(default_dir)
        .context("customs-sim needs --dir or CLEARWAY_CUSTOMS_DIR")?;
    for sub in ["outbox", "inbox", "done", "failed"] {
        std::fs::create_dir_all(dir.join(sub))?;
    }
    let rules = match &args.rules {
        Some(f) => parse_rules(
            &std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?,
        )?,
        None => Vec::new(),
    };
    if let Some(m) = &args.misbehave
        && !["duplicates", "reverse", "half", "malformed"].contains(&m.as_str())
    {
        anyhow::bail!("--misbehave must be duplicates, reverse, half or malformed");
    }
    let mut sim = Sim {
        rng: rand::rngs::StdRng::seed_from_u64(args.seed),
        args,
        dir,
        rules,
        answered: HashSet::new(),
        waiting_supplement: HashMap::new(),
        queue: Vec::new(),
        serial: 0,
    };
    tracing::info!(folder = %sim.dir.display(), "customs-sim: playing customs");
    loop {
        if let Err(e) = sim.scan() {
            tracing::warn!(error = %e, "customs-sim: will retry");
        }
        sim.write_due()?;
        if sim.args.once && sim.queue.is_empty() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_and_rules() {
        assert!(matches("CW5*", "CW50000001"));
        assert!(matches("*0001", "CW50000001"));
        assert!(!matches("CW6*", "CW50000001"));
        let rules = parse_rules("# demo\nCW5* inspect\nCW9*  sp1 # docs\n").expect("rules");
        assert_eq!(
            rules,
            vec![
                ("CW5*".into(), "inspect".into()),
                ("CW9*".into(), "sp1".into())
            ]
        );
        assert!(parse_rules("CW* nonsense").is_err());
    }

    #[test]
    fn without_xmllint_trans_mode_is_checked_as_the_schema_does() {
        let msg = |t: &str| {
            format!(
                "<DecMessage><DecHead><CopNo>CW0000000000000001</CopNo><IEFlag>E</IEFlag>\
                 <BillNo>CW1</BillNo>{t}</DecHead><DecLists><DecList><CodeTS>6109100010</CodeTS>\
                 <GName>T</GName><DeclTotal>1</DeclTotal></DecList></DecLists></DecMessage>"
            )
        };
        let none = Path::new("/nonexistent/DecMessage.xsd");
        let path = Path::new("m.xml");
        assert_eq!(check(path, &msg(""), none), None);
        assert_eq!(check(path, &msg("<TransMode>3</TransMode>"), none), None);
        assert_eq!(
            check(path, &msg("<TransMode>DDP</TransMode>"), none).as_deref(),
            Some("TransMode must be a 成交方式 code 1-7")
        );
    }

    #[test]
    fn taxes_from_the_message() {
        let xml = "<DecList><CodeTS>6109100000</CodeTS><DeclTotal>100</DeclTotal></DecList><DecList><CodeTS>3304990000</CodeTS><DeclTotal>100</DeclTotal></DecList>";
        assert_eq!(
            taxes(xml),
            vec![
                ("A", "20.00".into()),
                ("L", "30.55".into()),
                ("Y", "15.00".into())
            ]
        );
    }
}
