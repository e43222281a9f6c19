"""The one pagination of the API: a cursor over a stable order, so that a page never repeats nor
skips an object when entries are appended meanwhile."""

from rest_framework import pagination


class CursorPagination(pagination.CursorPagination):
    """Newest first by primary key, unless the view names its ``ordering``; the primary key ends
    every ordering so that objects sharing a date keep one order."""

    ordering = ("-pk",)

    def get_ordering(self, request, queryset, view) -> tuple[str, ...]:
        ordering = getattr(view, "ordering", None) or self.ordering
        ordering = (ordering,) if isinstance(ordering, str) else tuple(ordering)
        if ordering[-1].lstrip("-") not in ("pk", "id"):
            ordering = (*ordering, "-pk" if ordering[-1].startswith("-") else "pk")
        return ordering
