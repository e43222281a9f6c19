"""Reading the CSV and XLSX exports back, as a spreadsheet user would open them."""

import csv
import io

import openpyxl


def csv_rows(response) -> list[list[str]]:
    text = response.content.decode()
    assert text.startswith("\ufeff")  # Excel reads it as UTF-8
    delimiter = ";" if ";" in text.splitlines()[0] else ","
    return list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter))


def sheet(response):
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    return openpyxl.load_workbook(io.BytesIO(response.content)).active


def column(ws, header: str) -> list:
    """The values under ``header`` (first row) of a worksheet."""
    headers = [cell.value for cell in ws[1]]
    index = headers.index(header)
    return [row[index] for row in ws.iter_rows(min_row=2, values_only=True)]
