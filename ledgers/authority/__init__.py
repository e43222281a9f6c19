"""The authorities' registers and records (issue 11), and the status of every row issue 11 names.

Each row is implemented where named (tests named after the ID under ``tests/``), ruled out with
the catalogue's reason, or left open (say so, never silently).

Staffing, seats and limits (``ledgers/tables``: rules as data in ``rules.py``, services, hooks)
- GAME-02, 10, 13, 15, 17, 19, 21, 22, 27, 31, 36, 42 staffing: ``tables/rules.py`` STAFFING,
  refused at opening by ``tables/hooks.py`` (GAME-10 and GAME-42 footmen: flags in
  ``tables/selectors.exceptions``). GAME-31's register of approved bankers: NOT built (open).
- GAME-03, 06, 16, 18, 32, 34, 36 seats: ``rules.SEATS`` (GAME-03: the marked spots, SET-11).
- GAME-08, 18, 25, 28, 33, 35, 37, 38, 41 limits: ``rules.LIMITS`` checked by
  ``tables/services.table_limits_set``; GAME-26 players at opening: ``hooks.enough_players_seated``.
- GAME-30: two séances a day, ``tables/hooks.two_seances_a_day``; its new sixain per séance is the
  cards' allocation (``cards/deck_rules.py``; "new" not readable from numbering, AMB-05).
- GAME-11, GAME-24: ruled out in ``tables/rules.py`` (the catalogue fixes no check: signage; the
  refait premium is a table receipt counted with the result, COUNT-10).
- GAME-01, 05, 09, 12, 14, 23, 26, 32, 34, 39, 40 (decks): ``cards/deck_rules.py``.
- GAME-04 (Split Aces progressive side bet) and GAME-29 (chemin de fer past the closing time,
  FLAG without an extension record): NOT built (open).
- GAME-07, REG-19 house rules: ``authority`` HouseRulesVersion, TableOptionChange (services, pages).
- GAME-20, REG-18 complex called bets: ``authority`` CalledBet, flag on the dashboard.

Authorisations (AUTH-*)
- AUTH-01 declarations: ``authority`` Declaration (15 days, three recipients); the gate: a FR
  table's minimum stake changed from its previous table-partie's is refused without a 6°
  declaration implemented since (``tables/services._check_declared_minimum``; the roue's minimum
  raised at opening is GAME-38's own option). Not gated, because the code has no such operation
  as a service: the table mix, the opening hours (SET-25) and the 7° tournament tables.
- AUTH-02 follow-up flag: ``selectors.declarations_without_follow_up`` on the dashboard.
- AUTH-03 figures at any date: ``authority/authorisation.py`` and its page (from the audited
  history; the number of tables *requested* is not recorded, only those installed).
- AUTH-04: ``tables/services._check_limits`` against SET-08.
- AUTH-05: the GAME-25 agreement and GAME-28 notification references (``tables/rules.py``).
- AUTH-06 approvals and notices: ``core/approvals.py``, custody and equipment approvals, page.

Registers (REG-*)
- REG-02: the MC dice intake register coté et paraphé by the Commissaire only, refused citing
  REG-02 (``custody/registers.PRISE_EN_CHARGE``, ``RegisterKind.paraph_requirement_for``).
- REG-21 printed volumes, DUPLICATA, paraphe: ``registers/printing`` (services, API, volumes page).
- REG-22 regulators' access and log: ``authority/access.py``, middleware, page.
- REG-23 rules displays (SET-32 checklist, FR table refused while its display is missing):
  NOT built (open).
- REG-24 destruction minutes with the prior SCJ notice: the OUT entries of
  ``custody/services.destruction_complete`` (refusals CARD-11 / DICE-07).
- REG-25 séance closing: ``core/seances.py`` and the séance page, hooks per app.
- REG-26 who cotes and paraphs the art. 69 forms: SET-26 ``by_form``, ``RegisterKind``.
- REG-28: traceability is the REG-20 hash chain of every register; the electronic signature is
  the visa with re-authentication (``registers/forms.VisaForm``), not a qualified signature.
- REG-43 retention and season archives: ``retention.py``, ``archive.py``, docs/verify_export.py.
- REG-44, REG-45 police registers: ``authority`` Observation, LiaisonQuestion.
"""
