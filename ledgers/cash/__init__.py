"""Caisses des jeux: table floats (MC somme mise en banque, FR avance) and the carnet d'avances,
change slips and ravitaillement bons, end-of-séance counts, the poker rake and the FR registre de
contrôle (modèle 12). It covers the catalogue's COUNTROOM rows (COUNT-*) and the registers they
name (REG-09, REG-14, REG-29, REG-33, REG-34)."""
