//! The form's labels for the fields a message names: a person reads "Goods line 1 ·
//! Quantity", the machine keeps the JSON path (`declarationGoodsInfo[0].goodsQuantity`) in
//! the violation's `field`. The labels are the templates' column labels
//! (`crate::upload::fields`), the same the web form shows.

use api::{ApiError, FieldError, Text};

use crate::aggregate::Violation;
use crate::upload::fields::{self, GOODS, HEADER};

/// The label of a field by its JSON path, `(zh, en)`; the path itself when it names no
/// field of the form.
pub fn label(path: &str) -> (String, String) {
    if let Some(rest) = path.strip_prefix("declarationGoodsInfo[")
        && let Some((index, tail)) = rest.split_once(']')
        && let Ok(i) = index.parse::<usize>()
    {
        let n = i + 1;
        return match tail.strip_prefix('.') {
            None if tail.is_empty() => (format!("商品项 {n}"), format!("Goods line {n}")),
            Some(key) => match fields::find(GOODS, key) {
                Some(f) => (
                    format!("商品项 {n} · {}", f.zh),
                    format!("Goods line {n} · {}", f.en),
                ),
                None => (
                    format!("商品项 {n} · {key}"),
                    format!("Goods line {n} · {key}"),
                ),
            },
            None => (path.to_string(), path.to_string()),
        };
    }
    if let Some(rest) = path.strip_prefix("products[")
        && let Some((index, tail)) = rest.split_once(']')
        && let Ok(i) = index.parse::<usize>()
    {
        let key = tail.trim_start_matches('.');
        let (zh, en) = match key {
            "productDescription" => ("品名", "Description"),
            "productDescriptionEnglish" => ("英文品名", "English Description"),
            "htsCode" => ("HTS 编码", "HTS Code"),
            _ => (key, key),
        };
        return (
            format!("产品 {} · {zh}", i + 1),
            format!("Product {} · {en}", i + 1),
        );
    }
    match path {
        "declarationGoodsInfo" => return ("商品项".into(), "Goods lines".into()),
        "products" => return ("产品".into(), "Products".into()),
        "declarationType" => return ("申报类型".into(), "Declaration type".into()),
        "customerId" => return ("客户".into(), "Customer".into()),
        _ => {}
    }
    match fields::find(HEADER, path) {
        Some(f) => (f.zh.to_string(), f.en.to_string()),
        None => (path.to_string(), path.to_string()),
    }
}

/// The same violation with its messages naming the field by its label instead of its path
/// (messages start with the path: `grossWeight: must be greater than 0`).
pub fn labelled(mut v: Violation) -> Violation {
    if v.field.is_empty() {
        return v;
    }
    let (zh, en) = label(&v.field);
    if let Some(rest) = v.zh.strip_prefix(v.field.as_str()) {
        v.zh = format!("{zh}{rest}");
    }
    if let Some(rest) = v.en.strip_prefix(v.field.as_str()) {
        v.en = format!("{en}{rest}");
    }
    v
}

/// Every violation labelled ([`labelled`]).
pub fn all(violations: Vec<Violation>) -> Vec<Violation> {
    violations.into_iter().map(labelled).collect()
}

/// A body the form could not be read from (a value of the wrong type, a number that is
/// not one), its field errors labelled: `Goods line 1 · Quantity: must be a number, got
/// 'two'`. The path stays in each error's `field`.
pub fn relabel(error: ApiError) -> ApiError {
    let ApiError::BadRequest { fields, .. } = error else {
        return error;
    };
    let fields = fields
        .into_iter()
        .map(|f| {
            let (lz, le) = label(&f.field);
            if lz == f.field {
                return f;
            }
            let zh = f
                .message
                .zh
                .trim_start_matches("字段格式错误：")
                .to_string();
            let en = f
                .message
                .en
                .trim_start_matches("invalid value: ")
                .to_string();
            FieldError {
                message: Text::new(format!("{lz}：{zh}"), format!("{le}: {en}")),
                field: f.field,
            }
        })
        .collect();
    ApiError::bad_fields(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_as_the_form_labels_them() {
        assert_eq!(
            label("declarationGoodsInfo[0].goodsQuantity"),
            (
                "商品项 1 · 成交数量".to_string(),
                "Goods line 1 · Quantity".to_string()
            )
        );
        assert_eq!(label("trackingNumber").1, "Tracking No.");
        assert_eq!(label("somethingElse").1, "somethingElse");
        let v = labelled(Violation::new(
            "declarationGoodsInfo[1].totalPrice",
            "positive",
            "declarationGoodsInfo[1].totalPrice：必须大于 0",
            "declarationGoodsInfo[1].totalPrice: must be greater than 0",
        ));
        assert_eq!(v.en, "Goods line 2 · Total Price: must be greater than 0");
        assert_eq!(v.field, "declarationGoodsInfo[1].totalPrice");
    }
}
