"""Forms of the dice flows. They parse and validate input; the services apply the rules."""

import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import CountersignMixin
from ledgers.core.forms import EstablishmentForm
from ledgers.core.models import Establishment, Location, TableSession
from ledgers.core.roles import Role
from ledgers.core.selectors import depots
from ledgers.custody.models import DestructionSession, PurchaseOrder, Supplier
from ledgers.incidents.models import IncidentNotice

from .domains import DICE
from .models import DicePair, DiceSwap, Die
from .rules import CHECKLIST
from .selectors import dice_at_table, dice_of, stock_statement
from .services import DieInput, DieResult, Result, WithdrawReason

SEPARATORS = re.compile(r"[\s,;]+")
LOCAL_DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class SerialsField(forms.CharField):
    """Numéros d'ordre typed or scanned, separated by spaces, commas or new lines."""

    widget = forms.Textarea(attrs={"rows": 2})

    def to_python(self, value):
        return [s for s in SEPARATORS.split(super().to_python(value) or "") if s]


def resolve_dice(est: Establishment, serials: list[str], field: str) -> list[Die]:
    found = {die.serial: die for die in dice_of(est).filter(serial__in=serials)}
    unknown = [s for s in serials if s not in found]
    if unknown:
        raise ValidationError(
            {field: _("Numéro d'ordre inconnu dans cet établissement : %(s)s.") % {"s": ", ".join(unknown)}}
        )
    return [found[s] for s in serials]


# --- receipt -------------------------------------------------------------------------------------


class ReceiptForm(EstablishmentForm):
    location = forms.ModelChoiceField(label=_("Dépôt de destination"), queryset=Location.objects.none())
    order = forms.ModelChoiceField(label=_("Bon de commande"), queryset=PurchaseOrder.objects.none(), required=False)
    supplier = forms.ModelChoiceField(
        label=_("Fournisseur (sans bon de commande)"), queryset=Supplier.objects.none(), required=False
    )
    delivery_note = forms.CharField(label=_("Bon de livraison"), max_length=100, required=False)
    sigle = forms.CharField(label=_("Sigle du casino"), max_length=20)
    lines = forms.CharField(
        label=_("Dés reçus, un par ligne"),
        widget=forms.Textarea(attrs={"rows": 8, "class": "mono"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        est = self.establishment
        self.fields["location"].queryset = depots(est, DICE.depot_kinds)
        self.fields["order"].queryset = PurchaseOrder.objects.filter(establishment=est, domain=DICE.code).exclude(
            status=PurchaseOrder.Status.RECEIVED
        )
        self.fields["supplier"].queryset = Supplier.objects.filter(establishment=est, domain=DICE.code)
        if self.jurisdiction == "FR":
            del self.fields["supplier"]
            self.fields["order"].required = True
            self.fields["lines"].help_text = _(
                "« numéro d'ordre ; couleur ; côté en mm », les deux dés d'une paire sur deux lignes qui se suivent "
                "(ou un repère de paire en quatrième colonne)."
            )
        else:
            self.fields["lines"].help_text = _("Le numéro d'ordre de chaque dé (un sigle différent après un « ; »).")
        for key, label in CHECKLIST.items():
            self.fields[f"check_{key}"] = forms.BooleanField(label=label, required=False)

    def clean_lines(self) -> list[list[str]]:
        rows = [
            [cell.strip() for cell in line.split(";")]
            for line in self.cleaned_data["lines"].splitlines()
            if line.strip()
        ]
        width = 3 if self.jurisdiction == "FR" else 1
        if any(len(row) < width for row in rows):
            raise ValidationError(_("Chaque ligne porte : numéro d'ordre ; couleur ; côté en mm."))
        return rows

    def dice(self) -> list[DieInput]:
        data = self.cleaned_data
        inspection = {key: data[f"check_{key}"] for key in CHECKLIST}
        result = []
        for index, row in enumerate(data["lines"]):
            if self.jurisdiction == "FR":
                try:
                    side = Decimal(row[2].replace(",", ".").replace("mm", "").strip())
                except InvalidOperation as exc:
                    raise ValidationError({"lines": _("Côté illisible : « %(v)s ».") % {"v": row[2]}}) from exc
                pair = row[3] if len(row) > 3 and row[3] else f"#{index // 2}"
                result.append(
                    DieInput(
                        serial=row[0],
                        sigle=data["sigle"],
                        colour=row[1],
                        side_mm=side,
                        inspection=inspection,
                        pair=pair,
                    )
                )
            else:
                sigle = row[1] if len(row) > 1 and row[1] else data["sigle"]
                result.append(DieInput(serial=row[0], sigle=sigle, inspection=inspection))
        return result


class PairsCapForm(EstablishmentForm):
    max_pairs = forms.IntegerField(label=_("Nombre maximal de paires de dés"), min_value=1)
    reference = forms.CharField(label=_("Référence de la décision du ministre de l'intérieur"), max_length=200)


# --- allocation, swaps, end check ----------------------------------------------------------------


class AllocationForm(CountersignMixin, EstablishmentForm):
    supplementary = forms.BooleanField(label=_("Dotation complémentaire en cours de séance"), required=False)
    observations = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, session: TableSession, **kwargs):
        super().__init__(*args, **kwargs)
        self.session = session
        if self.jurisdiction == "MC":
            self.fields["dice"] = SerialsField(label=_("Numéros d'ordre des dés neufs (cinq par séance)"))
            signer = _("Sous-directeur")
        else:
            pairs = DicePair.objects.filter(establishment=self.establishment).order_by("number")
            self.fields["pair_in_play"] = forms.ModelChoiceField(
                label=_("Paire en jeu"), queryset=pairs, required=False
            )
            self.fields["pair_reserve"] = forms.ModelChoiceField(
                label=_("Paire de réserve (seule paire d'une dotation complémentaire)"), queryset=pairs, required=False
            )
            signer = _("Directeur responsable ou membre du comité")
        # The signatories the allocation's service accepts (SET-15).
        signers = tuple((self.establishment.setting("SET-15") or {}).get("allocation", ()))
        self.add_countersignature("signer", signer, roles=signers)
        self.order_fields(["dice", "pair_in_play", "pair_reserve", "supplementary", "observations"])

    def clean(self):
        data = super().clean()
        if self.jurisdiction == "MC" and "dice" in data:
            data["dice_objects"] = resolve_dice(self.establishment, data["dice"], "dice")
        if self.jurisdiction == "FR":
            chosen = [data.get("pair_in_play"), data.get("pair_reserve")]
            data["pairs"] = [p for p in chosen if p is not None]
            if not data["pairs"]:
                raise ValidationError(_("Choisissez les paires de dés."))
        return data


class SwapForm(EstablishmentForm):
    reason = forms.ChoiceField(label=_("Motif"), choices=DiceSwap.Reason.choices)
    damaged = SerialsField(label=_("Dés abîmés ou cassés (numéros)"), required=False)
    observations = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, session: TableSession, **kwargs):
        super().__init__(*args, **kwargs)
        self.session = session
        if self.jurisdiction == "MC":
            self.fields["withdrawn"] = SerialsField(label=_("Dés retirés du jeu (numéros)"), required=False)
            self.fields["brought_in"] = SerialsField(label=_("Dés mis en jeu (numéros)"))
            self.order_fields(["withdrawn", "brought_in", "reason", "damaged"])
        else:
            self.fields["pair_in"] = forms.ModelChoiceField(
                label=_("Paire mise en jeu (la paire de réserve)"),
                queryset=DicePair.objects.filter(establishment=self.establishment).order_by("number"),
            )
            self.fields["during_rampo_attempt"] = forms.BooleanField(
                label=_("Pendant une tentative de rampo"), required=False
            )
            reserve = dice_at_table(session).filter(play_role="reserve").values_list("pair", flat=True).first()
            self.fields["pair_in"].initial = reserve
            self.order_fields(["pair_in", "reason", "damaged", "during_rampo_attempt"])

    def clean(self):
        data = super().clean()
        est = self.establishment
        for name in ("withdrawn", "brought_in", "damaged"):
            if name in data:
                data[f"{name}_objects"] = resolve_dice(est, data[name], name)
        if data.get("pair_in") is not None:
            data["brought_in_objects"] = list(data["pair_in"].dice.order_by("serial"))
        return data


class EndCheckForm(CountersignMixin, EstablishmentForm):
    return_to = forms.ModelChoiceField(label=_("Dés remis au dépôt"), queryset=Location.objects.none())
    observations = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, session: TableSession, **kwargs):
        super().__init__(*args, **kwargs)
        self.session = session
        self.fields["return_to"].queryset = depots(self.establishment, DICE.depot_kinds)
        self.dice = list(dice_at_table(session))
        tri = [("", "—"), ("yes", _("conforme")), ("no", _("non conforme"))]
        for die in self.dice:
            self.fields[f"result_{die.pk}"] = forms.ChoiceField(
                label=die.designation, choices=Result.CHOICES, initial=Result.OK
            )
            if self.jurisdiction == "FR":
                self.fields[f"micrometer_{die.pk}"] = forms.CharField(
                    label=_("Micromètre (mm)"), required=False, max_length=10
                )
                self.fields[f"square_{die.pk}"] = forms.ChoiceField(label=_("Équerre"), choices=tri, required=False)
                self.fields[f"balance_{die.pk}"] = forms.ChoiceField(
                    label=_("Balancing caliper"), choices=tri, required=False
                )
            self.fields[f"remark_{die.pk}"] = forms.CharField(label=_("Remarque"), required=False, max_length=200)
        if self.jurisdiction == "FR":
            self.fields["micrometer"] = forms.CharField(label=_("Micromètre utilisé (n°)"), required=False)
            self.fields["square"] = forms.CharField(label=_("Équerre utilisée (n°)"), required=False)
            self.fields["balance"] = forms.CharField(label=_("« Balancing caliper » utilisé (n°)"), required=False)
            cosigners = tuple((self.establishment.setting("SET-15") or {}).get("end_check_table", ()))
            self.add_countersignature("cosigner", _("Chef de table"), required=False, roles=cosigners)

    PER_DIE = ("result", "micrometer", "square", "balance", "remark")

    def rows(self) -> list[tuple[Die, list]]:
        """One row per die for the check sheet: its result, measurements and remark fields."""
        return [
            (die, [self[f"{n}_{die.pk}"] for n in self.PER_DIE if f"{n}_{die.pk}" in self.fields]) for die in self.dice
        ]

    def other_fields(self) -> list:
        per_die = {f"{n}_{die.pk}" for die in self.dice for n in self.PER_DIE}
        return [self[name] for name in self.fields if name not in per_die]

    def results(self) -> list[DieResult]:
        data = self.cleaned_data
        as_bool = {"yes": True, "no": False, "": None}
        return [
            DieResult(
                die=die,
                result=data[f"result_{die.pk}"],
                remark=data.get(f"remark_{die.pk}", ""),
                micrometer=data.get(f"micrometer_{die.pk}", ""),
                square_ok=as_bool[data.get(f"square_{die.pk}", "")],
                balance_ok=as_bool[data.get(f"balance_{die.pk}", "")],
            )
            for die in self.dice
        ]

    def instruments(self) -> dict:
        return {key: self.cleaned_data.get(key, "") for key in ("micrometer", "square", "balance")}


class WithdrawForm(EstablishmentForm):
    dice = SerialsField(label=_("Numéros d'ordre des dés retirés"))
    reason = forms.ChoiceField(label=_("Motif"), choices=WithdrawReason.CHOICES)
    observations = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def clean(self):
        data = super().clean()
        if "dice" in data:
            data["dice_objects"] = resolve_dice(self.establishment, data["dice"], "dice")
        return data


# --- depots, orders, suppliers, verification --------------------------------------------------------


class TransferForm(WithdrawForm):
    to_location = forms.ModelChoiceField(label=_("Dépôt de destination"), queryset=Location.objects.none())
    received_by = forms.CharField(label=_("Reçu par"), max_length=200, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["reason"], self.fields["observations"]
        self.fields["dice"].label = _("Numéros d'ordre des dés transférés")
        self.fields["to_location"].queryset = depots(self.establishment, DICE.depot_kinds)


class DayCloseForm(EstablishmentForm):
    date = forms.DateField(label=_("Journée à arrêter"), widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["date"].initial = timezone.localdate()


class SupplierApprovalForm(EstablishmentForm):
    """A supplier's approval as it now stands (DICE-15)."""

    approval_reference = forms.CharField(label=_("Référence de l'agrément du ministre de l'intérieur"), max_length=200)
    approval_issuer = forms.CharField(label=_("Autorité d'agrément"), max_length=200, required=False)
    approved_from = forms.DateField(label=_("Agréé du"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    approved_until = forms.DateField(
        label=_("Agréé jusqu'au"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )


class SupplierForm(SupplierApprovalForm):
    name = forms.CharField(label=_("Raison sociale"), max_length=200)
    field_order = ("name",)

    def setup(self) -> None:
        self.fields["approval_reference"].required = False


class OrderForm(EstablishmentForm):
    supplier = forms.ModelChoiceField(label=_("Fournisseur"), queryset=Supplier.objects.none())
    carnet = forms.CharField(label=_("Carnet modèle 21 n°"), max_length=40, required=False)
    quantity = forms.IntegerField(label=_("Nombre de dés"), min_value=1)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["supplier"].queryset = Supplier.objects.filter(establishment=self.establishment, domain=DICE.code)
        if self.jurisdiction == "FR":
            self.fields["quantity"].label = _("Nombre de paires de dés")
        else:
            del self.fields["carnet"]

    def lines(self) -> list[dict]:
        per_unit = 2 if self.jurisdiction == "FR" else 1  # rampo dice are ordered by pairs
        return [{"category": "des", "quantity": self.cleaned_data["quantity"] * per_unit}]


class OrderVisaForm(EstablishmentForm):
    statement = forms.CharField(label=_("Mention du visa"), max_length=300, initial=_("Vu"))


class ConfirmForm(EstablishmentForm):
    confirm = forms.BooleanField(label=_("Je confirme"))


class VerificationForm(EstablishmentForm):
    opened_by = forms.CharField(
        label=_("Dépôt ou armoire ouvert par (détenteur de la clé)"), max_length=200, required=False
    )
    remarks = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        statement = stock_statement(self.establishment)
        names = dict(Location.objects.filter(establishment=self.establishment).values_list("pk", "name"))
        self.keys = sorted(statement.by_location, key=lambda k: (k[0] is None, str(k[0])))
        for index, (location_id, _category) in enumerate(self.keys):
            label = names.get(location_id) if location_id else _("En service aux tables")
            self.fields[f"counted_{index}"] = forms.IntegerField(
                label=_("%(place)s : dés comptés") % {"place": label},
                min_value=0,
                initial=statement.by_location[self.keys[index]],
            )
        if self.jurisdiction == "MC":
            self.fields["orders_seen"] = forms.ModelMultipleChoiceField(
                label=_("Bons de commande vus et visés"),
                required=False,
                widget=forms.CheckboxSelectMultiple,
                queryset=PurchaseOrder.objects.filter(
                    establishment=self.establishment, domain=DICE.code, visa_at__isnull=True
                ),
            )

    def counted(self) -> dict:
        return {key: self.cleaned_data[f"counted_{i}"] for i, key in enumerate(self.keys)}


# --- destruction -------------------------------------------------------------------------------


class DestructionPlanForm(EstablishmentForm):
    dice = forms.ModelMultipleChoiceField(
        label=_("Dés usagés ou abîmés"), queryset=Die.objects.none(), widget=forms.CheckboxSelectMultiple
    )
    method = forms.ChoiceField(label=_("Mode"), choices=DestructionSession.Method.choices)
    planned_at = forms.DateTimeField(label=_("Prévue le"), widget=LOCAL_DATETIME)

    def __init__(self, *args, queue, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["dice"].queryset = queue
        self.fields["planned_at"].initial = timezone.localtime().replace(second=0, microsecond=0)
        if self.jurisdiction == "FR":  # the neutralisation is a Monaco option only (DICE-19)
            self.fields["method"].help_text = _("En France, seule la destruction est admise.")


class DestructionNotifyForm(EstablishmentForm):
    channel = forms.ChoiceField(label=_("Moyen"), choices=IncidentNotice.Channel.choices)
    reference = forms.CharField(label=_("Référence (courriel, correspondant)"), max_length=200, required=False)


class DestructionCompleteForm(CountersignMixin, EstablishmentForm):
    observations = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.jurisdiction == "MC":
            self.add_countersignature("inspector", _("Inspecteur présent"), required=False, roles=(Role.INSPECTEUR,))
            self.add_countersignature(
                "witness", _("Agent du SCJ présent (facultatif)"), required=False, roles=(Role.SCJ,)
            )
        else:
            self.add_countersignature("witness", _("Fonctionnaire de police"), required=False, roles=(Role.POLICE,))
            yes_no = [("", "—"), ("no", _("Non")), ("yes", _("Oui"))]
            self.fields["loaded"] = forms.ChoiceField(label=_("Dés plombés ?"), choices=yes_no, required=False)
            self.fields["tampered"] = forms.ChoiceField(label=_("Dés pipés ?"), choices=yes_no, required=False)
            self.fields["police_service"] = forms.CharField(
                label=_("Service du fonctionnaire de police"), max_length=200, required=False
            )

    def finding(self, name: str) -> bool | None:
        return {"yes": True, "no": False}.get(self.cleaned_data.get(name, ""))
