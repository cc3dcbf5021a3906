#!/usr/bin/env python3
"""Writes the hostile corpus (tests/corpus/hostile/): files made to break a document reader.

Each file is small on disk; what it declares or expands to is not. tests/api/corpus.rs sends
every one to every route that reads files. Run from the repository root:
    python3 tests/corpus/make_hostile.py
"""
import io
import os
import struct
import zipfile
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hostile")

CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
    "</Types>"
)
RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
    "</Relationships>"
)
NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def sheet(rows_xml, dimension="A1:B2"):
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><worksheet {NS}>'
        f'<dimension ref="{dimension}"/><sheetData>{rows_xml}</sheetData></worksheet>'
    )


PLAIN_ROWS = (
    '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'
    '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2"><v>3</v></c></row>'
)


def shared(strings, unique=None, count=None, prolog=""):
    unique = len(strings) if unique is None else unique
    count = len(strings) if count is None else count
    items = "".join(f"<si><t>{s}</t></si>" for s in strings)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>{prolog}'
        f'<sst {NS} count="{count}" uniqueCount="{unique}">{items}</sst>'
    )


def workbook(sheet_xml=None, shared_xml=None, extra=()):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", CONTENT_TYPES)
        z.writestr("_rels/.rels", RELS)
        z.writestr("xl/workbook.xml", WORKBOOK)
        z.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        z.writestr("xl/worksheets/sheet1.xml", sheet_xml or sheet(PLAIN_ROWS))
        z.writestr("xl/sharedStrings.xml", shared_xml or shared(["trackingNumber", "1Z0001"]))
        for name, data in extra:
            z.writestr(name, data)
    return buf.getvalue()


def zip_bomb():
    # A sheet of 64 MiB of blanks in 64 KiB: the ratio (about 1000:1) gives it away.
    blanks = b" " * (64 * 1024 * 1024)
    return workbook(sheet_xml=sheet(PLAIN_ROWS).encode()[:-len(b"</worksheet>")] + blanks + b"</worksheet>")


def unique_count_bomb():
    # The reproduced crash: calamine reserved a slot per declared string before reading one.
    return workbook(shared_xml=shared(["trackingNumber", "1Z0001"], unique=4_000_000_000_000, count=4_000_000_000_000))


def billion_laughs():
    prolog = '<!DOCTYPE lolz [<!ENTITY lol "lol">' + "".join(
        f'<!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">' for i in range(1, 10)
    ) + "]>"
    return workbook(shared_xml=shared(["&lol9;", "1Z0001"], prolog=prolog))


def external_entity():
    prolog = '<!DOCTYPE sst [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
    return workbook(shared_xml=shared(["&xxe;", "1Z0001"], prolog=prolog))


def huge_dimension():
    return workbook(sheet_xml=sheet(PLAIN_ROWS, dimension="A1:XFD1048576"))


def deep_nesting():
    depth = 50_000
    rows = '<row r="1">' + "<is>" * depth + "</is>" * depth + "</row>"
    return workbook(sheet_xml=sheet(rows))


def truncated_zip():
    whole = workbook()
    return whole[: len(whole) // 2]


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def huge_png():
    # 30,000 x 30,000 RGB: 2.7 GB decoded; the pixel data is a few rows of zeros.
    ihdr = struct.pack(">IIBBBBB", 30_000, 30_000, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\0" * (1 + 30_000 * 3) * 4, 9)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b"")


def pdf(objects):
    out = b"%PDF-1.7\n"
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return out


def expanding_pdf():
    # One page whose content is deflated twice: 9 KB on disk, about 512 MB of text operators
    # once expanded; a reader that does not bound what it reads never ends.
    line = b"BT /F1 8 Tf 10 10 Td (AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA) Tj ET\n"
    once = zlib.compress(line * (512 * 1024 * 1024 // len(line)), 9)
    twice = zlib.compress(once, 9)
    stream = (
        f"<< /Length {len(twice)} /Filter [/FlateDecode /FlateDecode] >>\nstream\n".encode()
        + twice
        + b"\nendstream"
    )
    return pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        stream,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ])


def text_named_xlsx():
    return b"trackingNumber,goodsName,goodsQuantity\n1Z0001,cup,3\n"


FILES = {
    "zip_bomb.xlsx": zip_bomb,
    "unique_count_bomb.xlsx": unique_count_bomb,
    "billion_laughs.xlsx": billion_laughs,
    "external_entity.xlsx": external_entity,
    "huge_dimension.xlsx": huge_dimension,
    "deep_nesting.xlsx": deep_nesting,
    "truncated.xlsx": truncated_zip,
    "huge_pixels.png": huge_png,
    "expanding.pdf": expanding_pdf,
    "text_named.xlsx": text_named_xlsx,
}

if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for name, make in FILES.items():
        data = make()
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
        print(f"{name}: {len(data)} bytes")
