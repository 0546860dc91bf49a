"""Spreadsheets made for the tests as Excel and LibreOffice save them: .xlsx
(openpyxl) and .ods (odfpy), each sheet a list of rows of cells."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import Table, TableCell, TableRow
from odf.text import P
from openpyxl import Workbook

Sheets = dict[str, list[list[Any]]]


def xlsx(sheets: Sheets) -> bytes:
    book = Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        ws = book.create_sheet(name)
        for row in rows:
            ws.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def ods(sheets: Sheets, trailing_rows: int = 0) -> bytes:
    """As LibreOffice writes a sheet: numbers typed as floats with their shown
    text, and (``trailing_rows``) one empty row repeated to the sheet's end."""
    doc = OpenDocumentSpreadsheet()
    for name, rows in sheets.items():
        table = Table(name=name)
        for row in rows:
            tr = TableRow()
            for value in row:
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    cell = TableCell(valuetype="float", value=str(value))
                    cell.addElement(P(text=f"{value:.2f}".replace(".", ",")))  # as a Czech locale shows it
                elif value is None:
                    cell = TableCell()
                else:
                    cell = TableCell(valuetype="string")
                    cell.addElement(P(text=str(value)))
                tr.addElement(cell)
            tr.addElement(TableCell(numbercolumnsrepeated=1000))  # the empty columns to the sheet's edge
            table.addElement(tr)
        if trailing_rows:
            empty = TableRow(numberrowsrepeated=trailing_rows)
            empty.addElement(TableCell(numbercolumnsrepeated=1024))
            table.addElement(empty)
        doc.spreadsheet.addElement(table)
    out = io.BytesIO()
    doc.write(out)
    return out.getvalue()


def save(path: Path, sheets: Sheets) -> Path:
    path.write_bytes(xlsx(sheets) if path.suffix == ".xlsx" else ods(sheets, trailing_rows=1_048_000))
    return path
