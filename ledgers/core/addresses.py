"""The URLs of one named pattern for the rows of a list, the pattern reversed once.

``reverse`` looks the pattern up, fills it and checks the result for every URL: a home's lists
reverse the same pattern for each of their rows. ``Addresses`` reverses it once with marks in
place of the arguments, and gives each row's URL by putting its arguments, quoted as ``reverse``
quotes them, in place of the marks.
"""

import re
from urllib.parse import quote

from django.urls import reverse
from django.utils.http import RFC3986_SUBDELIMS

# Digits pass every converter (int, str, slug, path); this many will not occur elsewhere in a URL.
MARK = 987654320


class Addresses:
    """The URLs of the pattern ``name`` taking ``arity`` positional arguments: ``addresses(*args)``
    is ``reverse(name, args=args)`` for arguments the pattern accepts."""

    def __init__(self, name: str, arity: int) -> None:
        marks = [str(MARK + n) for n in range(arity)]
        pieces = re.split(f"({'|'.join(marks)})", reverse(name, args=marks))
        self._texts = pieces[::2]  # the URL's fixed texts, around the arguments
        self._order = [marks.index(mark) for mark in pieces[1::2]]  # which argument goes between them

    def __call__(self, *args: object) -> str:
        filled = [self._texts[0]]
        for position, text in zip(self._order, self._texts[1:], strict=True):
            filled += [quote(str(args[position]), safe=RFC3986_SUBDELIMS + "/~:@"), text]
        return "".join(filled)
