"""The API layer every app's ``api/`` package is built on:

- ``ServiceAction`` (``actions``): a POST that validates its input, calls one service, answers 201;
- ``EstablishmentScoped`` (``scoping``): the caller's establishment, one way, and what is in it;
- ``CursorPagination`` (``pagination``): every list, by a stable key;
- ``exception_handler`` (``errors``): a rule of the texts 409 ``{"code", "article", "detail"}``,
  bad input 400 with its fields, a role 403, a contradicted row 400/409 — never a 500;
- ``AutoSchema`` (``schema``): their OpenAPI description.

The settings name the pagination, the handler and the schema: the modules are imported by name
(no re-export here, so that loading the pagination class does not load the views).
"""
