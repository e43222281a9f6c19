"""Slot machines. Where the catalogue rows below stand (tests named after the IDs in tests/slots):

- SLOT-10 done (MC): the drop type of each machine, a cash box or bucket in the socle or a
  pneumatic conveyor to the count room (``Machine.drop_type``, inventory line, machine page, API).
  The text sets no check.
- SLOT-21 done (MC): the register of change points (desk, change machine, itinerant changeur) and
  the assignments per séance (``cashdesk``, register ``slot_caisse``); change given by anyone but
  the person assigned to the point for the open séance is refused.
- SLOT-26 done (FR): the common cash desk is enabled only through its record (``cashdesk.
  common_desk_enable``): the judicial police chief's prior validation (reference, date, name),
  contiguous table games, route (a) at most 75 machines in operation, route (b) every machine in
  operation on TITO or cards; a change at it is refused without its table / slot account.
- SLOT-27 ruled out: art. 68-17 is not in the corpus, so the check its threshold feeds is unknown;
  SET-30 (50 % of the *authorised* fleet) has nothing to apply to until that article is supplied.
- SLOT-28 done by the authority app: the installed machines at any date are AUTH-03's figures
  (``ledgers.authority.authorisation``, from the machines' audited history), tested here.
- SLOT-45 done (FR): the counterfeit coins and foreign currency box at the cash desk (deposits by
  the cashier), never exchanged (``cashdesk.change_record(tendered=…)`` refused), destroyed only for
  items of an ended financial year (setting SLOT-45 "year_end", default 31 October, the end of the
  gaming season) under the comptable du Trésor's control (AMB-48: named, to confirm).
- SLOT-46 done (FR): the count sessions (``counts``, register ``slot_comptees``): as needed, month
  end (only on the month's last day), season end (floats and hoppers required), a denomination
  during a séance (the séance then closes only with that denomination's general count, a
  ``hooks`` check). A count closes only once every machine that was in service since its last
  count is counted; a cashless machine's line needs its electronic units in and out; each line is
  the machine's count in modèle 29. The état modèle 32 (the month's closing) is refused without
  the closed month-end count. MC: the count of a relève's boxes, each line its reconciled drop.
  The open session is the key purpose ``slots.count`` (KEY-03, KEY-14).
- SLOT-48 done (FR): the slot desk, secondary desks and itinerant changers; an itinerant changer
  without a fixed sum is refused; each desk has its cashier named per séance (the séance closes
  only then) and change is given only by the person assigned.
- SLOT-49 done (FR): the encaisse opens in cash and chips, is justified on demand by the items the
  text lists with the open avance and payment bons of the carnets modèle 29 as cash values, and
  the assignment (and so the séance) closes only once the restoring deposits and withdrawals with
  the caisse centrale or the chips deposit account give back its composition, or after a count its
  amount.
- INC-06 done (MC): the surveillance agent's incident report (``reports``) closes only with both
  notices recorded: his hierarchy (the Direction des Casinos of art. 23, the directeur des jeux
  here) and the superviseur.
- INC-16 done (FR): the SFM technician's anomaly report closes only with the police informed: urgent
  by any channel, otherwise by a written report (``Category.notice_channels``). Not done: a time
  limit for "without delay".
"""
