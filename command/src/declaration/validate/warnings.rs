//! What is worth a second look but does not stop a form: goods lines priced in another
//! currency than the declaration's header (`currencyCode`). Shown by the form, the wizard
//! and the check call (`POST /api/v1/declarations/validate`, `warnings`); never refused.

use events::declaration::DeclarationData;

use super::present;
use crate::aggregate::Violation;
use crate::declaration::labels::label;

/// The warnings of a form: one per goods line whose currency differs from the header's.
pub fn warnings(d: &DeclarationData) -> Vec<Violation> {
    let Some(header) = present(&d.currency_code) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, line) in d.declaration_goods_info.iter().enumerate() {
        let Some(cur) = present(&line.currency) else {
            continue;
        };
        if cur.eq_ignore_ascii_case(header) {
            continue;
        }
        let field = format!("declarationGoodsInfo[{i}].currency");
        let (lz, le) = label(&field);
        out.push(Violation::new(
            field,
            "currency_mismatch",
            format!("{lz}：币制 {cur} 与申报单币制 {header} 不同，请确认"),
            format!(
                "{le}: priced in {cur}, but the declaration's currency is {header}; please check"
            ),
        ));
    }
    out
}
