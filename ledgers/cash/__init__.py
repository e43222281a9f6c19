"""Caisses des jeux: table floats (MC somme mise en banque, FR avance) and the carnet d'avances,
change slips and ravitaillement bons, end-of-séance counts, the poker rake, cagnottes, the bad
beat jackpot, orphans, ticket books and the FR registre de contrôle (modèle 12).

Where each COUNT requirement stands: docs/requirements/."""
