//! The HS 2022 nomenclature's search index (`hs_nomenclature`), loaded by `clearway seed`
//! from the copy compiled into the command crate (`seeds/hs2022_nomenclature.csv`).

use sqlx::PgPool;

/// Writes every chapter, heading and subheading with its search vector: its own
/// description (weight A), its heading's (B) and its chapter's (C), English words through
/// PostgreSQL's `english` configuration. Idempotent: rows already as they should be are not
/// written again, rows of codes no longer in the nomenclature are removed. Answers how many
/// rows were written or removed (0 when the table was up to date).
pub async fn seed_hs_nomenclature(pool: &PgPool) -> anyhow::Result<u64> {
    let entries = command::hs::entries();
    let mut codes = Vec::with_capacity(entries.len());
    let mut sections = Vec::with_capacity(entries.len());
    let mut descriptions = Vec::with_capacity(entries.len());
    let mut parents = Vec::with_capacity(entries.len());
    let mut up1 = Vec::with_capacity(entries.len());
    let mut up2 = Vec::with_capacity(entries.len());
    for e in entries {
        codes.push(e.code.as_str());
        sections.push(e.section.as_str());
        descriptions.push(e.description.as_str());
        parents.push(e.parent.as_str());
        let parent = command::hs::entry(&e.parent);
        let grandparent = parent.and_then(|p| command::hs::entry(&p.parent));
        up1.push(parent.map_or("", |p| p.description.as_str()));
        up2.push(grandparent.map_or("", |p| p.description.as_str()));
    }
    let mut tx = pool.begin().await?;
    let written = sqlx::query(
        "INSERT INTO hs_nomenclature (code, level, section, description, parent, search)
         SELECT code, length(code), section, description, nullif(parent, ''),
                setweight(to_tsvector('english', description), 'A')
                || setweight(to_tsvector('english', up1), 'B')
                || setweight(to_tsvector('english', up2), 'C')
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
                AS t(code, section, description, parent, up1, up2)
         ON CONFLICT (code) DO UPDATE SET
             level = EXCLUDED.level, section = EXCLUDED.section,
             description = EXCLUDED.description, parent = EXCLUDED.parent,
             search = EXCLUDED.search
         WHERE (hs_nomenclature.level, hs_nomenclature.section, hs_nomenclature.description,
                hs_nomenclature.parent, hs_nomenclature.search)
               IS DISTINCT FROM
               (EXCLUDED.level, EXCLUDED.section, EXCLUDED.description, EXCLUDED.parent,
                EXCLUDED.search)",
    )
    .bind(&codes)
    .bind(&sections)
    .bind(&descriptions)
    .bind(&parents)
    .bind(&up1)
    .bind(&up2)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    let removed = sqlx::query("DELETE FROM hs_nomenclature WHERE NOT (code = ANY($1::text[]))")
        .bind(&codes)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    tx.commit().await?;
    Ok(written + removed)
}
