//! The codes of a declaration: class, direction, type code and status.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// B personal items, C low-value goods, D formal declaration goods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DeclarationClass {
    B,
    C,
    D,
}

impl DeclarationClass {
    pub fn letter(self) -> &'static str {
        match self {
            Self::B => "B",
            Self::C => "C",
            Self::D => "D",
        }
    }
}

/// Import (shipmentType 0) or export (shipmentType 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    Import,
    Export,
}

impl Direction {
    /// The spec's shipmentType: 0 import, 1 export.
    pub fn shipment_type(self) -> i16 {
        match self {
            Self::Import => 0,
            Self::Export => 1,
        }
    }

    pub fn from_shipment_type(value: i64) -> Option<Self> {
        match value {
            0 => Some(Self::Import),
            1 => Some(Self::Export),
            _ => None,
        }
    }
}

/// Declaration type code: direction + class (OB OC OD / IB IC ID).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TypeCode {
    pub direction: Direction,
    pub class: DeclarationClass,
}

impl TypeCode {
    pub const ALL: [TypeCode; 6] = [
        TypeCode::new(Direction::Export, DeclarationClass::B),
        TypeCode::new(Direction::Export, DeclarationClass::C),
        TypeCode::new(Direction::Export, DeclarationClass::D),
        TypeCode::new(Direction::Import, DeclarationClass::B),
        TypeCode::new(Direction::Import, DeclarationClass::C),
        TypeCode::new(Direction::Import, DeclarationClass::D),
    ];

    pub const fn new(direction: Direction, class: DeclarationClass) -> Self {
        Self { direction, class }
    }

    pub fn as_str(self) -> &'static str {
        match (self.direction, self.class) {
            (Direction::Export, DeclarationClass::B) => "OB",
            (Direction::Export, DeclarationClass::C) => "OC",
            (Direction::Export, DeclarationClass::D) => "OD",
            (Direction::Import, DeclarationClass::B) => "IB",
            (Direction::Import, DeclarationClass::C) => "IC",
            (Direction::Import, DeclarationClass::D) => "ID",
        }
    }
}

impl fmt::Display for TypeCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for TypeCode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim().to_ascii_uppercase();
        TypeCode::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| format!("unknown declaration type code {s:?}"))
    }
}

impl Serialize for TypeCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for TypeCode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The declaration state machine's status codes (DOMAIN.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DeclarationStatus {
    Draft,
    Unprocessed,
    ReviewedNotCompleted,
    Completed,
    DocumentException,
    Deleted,
    ReturnedNotCompleted,
    ReturnedNotSubmitted,
}

impl DeclarationStatus {
    pub const ALL: [DeclarationStatus; 8] = [
        Self::Draft,
        Self::Unprocessed,
        Self::ReviewedNotCompleted,
        Self::Completed,
        Self::DocumentException,
        Self::Deleted,
        Self::ReturnedNotCompleted,
        Self::ReturnedNotSubmitted,
    ];

    pub fn code(self) -> i16 {
        match self {
            Self::Draft => 0,
            Self::Unprocessed => 1,
            Self::ReviewedNotCompleted => 2,
            Self::Completed => 3,
            Self::DocumentException => 4,
            Self::Deleted => 5,
            Self::ReturnedNotCompleted => 10,
            Self::ReturnedNotSubmitted => 11,
        }
    }

    pub fn from_code(code: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|s| i64::from(s.code()) == code)
    }

    /// Chinese label, as the spec's export filter names it.
    pub fn label_zh(self) -> &'static str {
        match self {
            Self::Draft => "草稿",
            Self::Unprocessed => "未处理",
            Self::ReviewedNotCompleted => "已审核未完成",
            Self::Completed => "已完成",
            Self::DocumentException => "单证异常待补充",
            Self::Deleted => "已删除",
            Self::ReturnedNotCompleted => "已退回未完成",
            Self::ReturnedNotSubmitted => "已退回未提交",
        }
    }

    pub fn label_en(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::Unprocessed => "unprocessed",
            Self::ReviewedNotCompleted => "reviewed but not completed",
            Self::Completed => "completed",
            Self::DocumentException => "document exception awaiting supplement",
            Self::Deleted => "deleted",
            Self::ReturnedNotCompleted => "returned and not completed",
            Self::ReturnedNotSubmitted => "returned and not submitted",
        }
    }
}

impl Serialize for DeclarationStatus {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i16(self.code())
    }
}

impl<'de> Deserialize<'de> for DeclarationStatus {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let code = i64::deserialize(d)?;
        Self::from_code(code).ok_or_else(|| serde::de::Error::custom("unknown status code"))
    }
}
