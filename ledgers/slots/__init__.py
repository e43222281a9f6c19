"""Slot machines (appareils automatiques). Status of the FR progressive-jackpot and orphan rows
(implemented / partial: what is missing / not done):

- SLOT-36 implemented (``progressives.py``): registre des jackpots progressifs (REG-37) with the
  displayed amount of each local progressive per gaming day; the last séance of the day does not
  close without it (``on_seance_closing``); a fall no payment explains is flagged.
- SLOT-37 implemented: transfer of the whole increment or final stop to the orphans carnet
  modèle 11 bis (``ledgers.cash`` orphan services), the Minister notified ≥ SET-42 (15 days)
  before (recorded on the stop: date and reference, not in ``authority``); recovery until 31
  October of the season, closing the orphans line.
- SLOT-38 partial: identical machines only (make, type, game name, payment programme, new machine
  fields) at creation and connection; the daily modèle 28 S line with every connected machine's
  electronic "entrées" meter, required for the day's séance closing. Not done: the gate "refuse
  opening the slot room without it" (the code has no slot-room opening act), modèle 26 "JPM".
- SLOT-39 implemented: CSV export of the figures from modèle 28 S (electromechanical "entrées" from
  the last meter reading), transmission record by the directeur responsable with the file's
  SHA-256; month ends and wins with no transmission after TRANSMISSION_DAYS are flagged on the
  progressives page.
- SLOT-40 implemented: a JPM win stops its machines, pays the bon de paiement on the winning
  machine here (SLOT-35), annotates modèle 28 S with both meters of every machine and draws up one
  bon d'incrémentation per connected machine (cashier + comité member, numbered) with its modèle
  29 line (art. 73 annotation), in one transaction; restart only with every bon.
- SLOT-41 partial: global stop (Minister informed on the day at the latest, this casino's share
  to orphans, recovery by a new JPM before 31 October) and withdrawal (≥ 15 days' notice, one bon
  per machine on the day). Not done: the month-end deduction from the gross gaming product (modèle
  35 does not subtract the withdrawal bons).
- SLOT-43 implemented (``unclaimed.py``): état de rapprochement modèle 31 per meter reading, a line
  for every machine read; a shortfall posted to orphans and modèle 29 in the same transaction (no
  reconciliation without its orphans entry); an excess flagged; a closed relève without its modèle
  31 is flagged on the dashboard (the relève's closing itself is not gated).
- SLOT-44 implemented: TITO tickets imported from the approved system, redemption refused after
  SET-37 (end of issue day + 8); the expiry run posts every expired ticket to modèle 11 bis and the
  machine's modèle 29; the séance does not close while an expired ticket is unposted.
"""
