"""Key custody (issue 9): the register of keys, every hand-over for an open purpose, overdue and
still-out keys, socle keys surrendered, blind inventories. Where each KEY row of the catalogue
stands (tests named after the IDs in tests/keys and tests/slots/test_keys.py):

- KEY-01 done: one key ID for two lock types refused (``services.key_register``).
- KEY-02 done: socle and bill-box release keys kept at the caisse centrale, out only for an open
  relève (the slot room's ``slots.releve`` purpose), flagged when still out after it closed.
- KEY-03 done: bill-box content keys kept by comptabilité générale, refused to slot-floor roles
  (BP), out only for a purpose of kind "count": the table count (``cash.purposes``) or the slot
  room's count session of a relève's boxes (``slots.count``, SLOT-46), flagged when still out after it.
- KEY-04 done: machine keys kept in the coffre d'exploitation.
- KEY-05 done: handed by a superviseur only, for a real intervention or relève; flagged when
  overdue or still out after its intervention closed; a machine key still out when the séance
  closes is flagged on the closing page and API (``hooks.machine_keys_out``, a ``Missing`` with
  ``flag``: the closing goes on, the catalogue says FLAG), then on the exceptions list and the
  dashboard until it is back.
- KEY-06 done by the slot room's monitoring import: a door signal with no intervention opened by
  the signed-in mechanic is flagged (stored under SLOT-14, ``slots.services._explained``).
- KEY-07 done: ``services.socle_key_surrender`` and ``slots.locks.socle_withdraw`` (refused without
  it); the socle withdrawal page (``slots:socle_withdraw``) and API (``/api/v1/slots/socles/withdraw/``)
  hand the lock and key to the caissier principal, who signs, and withdraw the socle in one
  transaction (``slots.locks.socle_withdraw_handing_over``).
- KEY-08 done (roulette lid key, table closing check).
- KEY-09 done: a machine taking banknotes goes in service only with a bill-box key registered for
  it (``slots.locks.check_lock_keys``; a key's ``asset_ref`` lists machine numbers).
- KEY-10 done as a setting: Monaco card depots' keys are not regulated (SET-35, BP; no refusal);
  France: KEY-11.
- KEY-11 done: one key, one copy, held by the directeur responsable or a comité member; the cards
  app names the holder who opened the cabinet (``selectors.cabinet_key``, ``holder_now``) on each
  card issue, return and verification (CARD-34, CARD-37, CARD-29), and refuses them when no key of
  the cabinet is in service (none registered, or retired).
- KEY-12 done: upper and lower locks, and one for the bill or ticket device, before "in service";
  one key ID per lock type (BP).
- KEY-13, KEY-14 done: holders and givers per SET-36; the cashier's bill and ticket box key out only
  for a count: the table count or the slot count session (``slots.count``, SLOT-46).
- KEY-15 done: reset keys kept by comité members; a RAM clear is recorded by the comité member who
  holds the registered reset key of that machine (``slots.locks.check_reset_key``), in modèle 26.
- KEY-16 done: casino employees refused as holders, the SFM or police organisation required; each
  access is the logic-board key's hand-over for an intervention, naming the SFM technician or
  officer who held it.
- KEY-17 done: an upper-part opening refused without the directeur responsable or comité member
  and the mechanic (or, at most SET-43 machines counted by the slot room, the employee in charge;
  AMB-51 as BP); door signals with no intervention are flagged (stored under SLOT-53).
"""
