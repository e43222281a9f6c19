"""Every list the demo's pages show exports: each page each demo role reaches from its home that
shows a data table (a first row of column headings, then rows of records) offers a CSV and an XLSX
link under it, and each link answers the whole list (all its pages), headings in the reader's
language, with no cell a spreadsheet would run as a formula.

Not lists: tables of facts about one thing (rows of a heading and its value), and a form's grid
(a table inside a ``<form>``, or marked ``class="layout"``). Rows of headings only (totals) and the
one cell saying a list is empty are not records. A list shown in sections (tables with the same
headings, the export links under the last one) exports as one."""

import re
from collections import Counter
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlsplit

import pytest

from ledgers.core.demo import demo_logins
from tests.core.test_readable_pages import as_user, crawl, demo, french_only  # noqa: F401 (demo: the seeded demo)
from tests.spreadsheets import csv_rows, sheet

CONTENT_TYPES = {"csv": "text/csv", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}
# A cell a spreadsheet would run: a formula sign not followed by a plain number ("-12,50" stays).
FORMULA = re.compile(r"^[=+\-@](?![\d \u00a0\u202f.,]*$)")


class Table:
    def __init__(self, classes: list[str], in_form: bool) -> None:
        self.classes = classes
        self.in_form = in_form
        self.rows: list[list[tuple[str, str]]] = []  # (tag, text) of each cell
        self.exports: dict[str, str] = {}  # format: url

    @property
    def is_list(self) -> bool:
        return (
            "layout" not in self.classes
            and not self.in_form
            and bool(self.rows)
            and all(tag == "th" for tag, _ in self.rows[0])
            and len(self.rows[0]) > 1
        )

    def records(self) -> list[tuple]:
        """Rows of records, not the headings nor the one cell saying the list is empty (two records
        may read alike: they are counted apart)."""
        return [tuple(row) for row in self.rows[1:] if len(row) > 1 and any(tag == "td" for tag, _ in row)]

    @property
    def headings(self) -> list[str]:
        return [text for _, text in self.rows[0]]


class Page(HTMLParser):
    """A page's tables, each with the export links that follow it, and its list's other pages."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[Table] = []
        self.other_pages: set[str] = set()
        self.links: list[str] = []
        self._open: list[Table] = []
        self._cell: list[str] | None = None
        self._forms = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._forms += 1
        elif tag == "table":
            self._open.append(Table((attrs.get("class") or "").split(), self._forms > 0))
            self.tables.append(self._open[-1])
        elif tag == "tr" and self._open:
            self._open[-1].rows.append([])
        elif tag in ("th", "td") and self._open and self._open[-1].rows:
            self._cell = [tag, ""]
        elif tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
            query = dict(parse_qsl(urlsplit(attrs["href"]).query))
            if "download" in attrs:
                # An export link belongs to the list above it (or, above any list, to the first one).
                fmt = "xlsx" if "xlsx" in attrs["href"] else "csv" if "csv" in attrs["href"] else None
                owner = self.lists[-1] if self.lists else None
                if fmt:
                    self.pending.append((owner, fmt, attrs["href"]))
            elif {"page", "after"} & set(query) and urlsplit(attrs["href"]).path in ("", self.path):
                self.other_pages.add(urlsplit(attrs["href"]).query)  # the list's other pages

    def handle_endtag(self, tag):
        if tag == "form":
            self._forms -= 1
        elif tag == "table" and self._open:
            self._open.pop()
        elif tag in ("th", "td") and self._cell and self._open and self._open[-1].rows:
            self._open[-1].rows[-1].append((self._cell[0], self._cell[1].strip()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[1] += data

    def parse(self, path: str, html: str) -> "Page":
        self.path, self.pending = path, []
        self.feed(html)
        lists = self.lists
        for owner, fmt, href in self.pending:
            (owner or (lists[0] if lists else Table([], False))).exports.setdefault(fmt, href)
        return self

    @property
    def lists(self) -> list[Table]:
        return [table for table in self.tables if table.is_list]

    def sections(self) -> list[list[Table]]:
        """The lists, those shown in sections grouped: tables without links of their own followed by
        one of the same headings."""
        groups: list[list[Table]] = []
        for table in self.lists:
            if groups and not groups[-1][-1].exports and groups[-1][-1].headings == table.headings:
                groups[-1].append(table)
            else:
                groups.append([table])
        return groups


def absolute(path: str, href: str) -> str:
    return href if href.startswith("/") else path + href


def export_problems(client, url: str, page: Page, french: set[str]) -> list[str]:
    path = urlsplit(url).path
    found = []
    for index, section in enumerate(page.sections()):
        table = section[-1]
        heading = " | ".join(table.headings)[:80]
        if set(table.exports) != set(CONTENT_TYPES):
            found.append(f"{url} [{heading}]: no CSV and XLSX links")
            continue
        # Each record once whatever the page or the order it is read in (pager and sorting links),
        # but two records that read alike twice.
        rows = Counter(row for part in section for row in part.records())
        queue, seen = sorted(page.other_pages), set()
        while queue:  # every page of the list, each once
            query = queue.pop()
            if query in seen:
                continue
            seen.add(query)
            other = Page().parse(path, client.get(f"{path}?{query}").content.decode())
            rows |= Counter(row for part in other.sections()[index] for row in part.records())
            queue += sorted(other.other_pages - seen)
        expected = rows.total()
        for fmt, href in table.exports.items():
            response = client.get(absolute(path, href))
            if response.status_code != 200 or not response["Content-Type"].startswith(CONTENT_TYPES[fmt]):
                found.append(f"{url} [{heading}] {fmt}: {response.status_code} {response['Content-Type']}")
                continue
            if fmt == "csv":
                headers, *rows = csv_rows(response)
            else:
                headers, *rows = [["" if v is None else v for v in row] for row in sheet(response).values]
            if len(rows) != expected:
                found.append(f"{url} [{heading}] {fmt}: {len(rows)} rows, the page lists {expected}")
            if untranslated := [h for h in headers if h in french]:
                found.append(f"{url} [{heading}] {fmt}: French headings {untranslated}")
            if formulas := [c for row in rows for c in row if isinstance(c, str) and FORMULA.match(c)]:
                found.append(f"{url} [{heading}] {fmt}: formulas {formulas[:3]}")
    return found


@pytest.mark.usefixtures("demo")
def test_every_list_of_every_role_exports_in_csv_and_xlsx(db):
    french = french_only()
    seen_views: set[str] = set()
    found, lists = [], 0
    for username, _role, _establishment in demo_logins():
        client = as_user(username, "en")

        def read(url: str, html: str, client=client) -> list[str]:
            nonlocal lists
            page = Page().parse(urlsplit(url).path, html)
            lists += len(page.lists)
            found.extend(export_problems(client, url, page, french))
            return page.links

        crawl(client, seen_views, read)
    assert len(seen_views) > 100 and lists > 30  # the crawl reached the lists, not only the homes
    assert found == [], "\n".join(found)
