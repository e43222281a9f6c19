"""Pages of the set-up: the administrator creates the establishment with its first director; the
directorate's set-up area shows what exists and what is missing, adds rooms and places, and
fills them from spreadsheets (a preview of every row's problem before anything is written)."""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import NoReverseMatch, reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView

from .authz import roles_of
from .exports import ListExportMixin
from .imports import IMPORTS, Outcome, RowSpec, import_rows, read_rows, specs_for
from .models import LocationKind
from .roles import role_label
from .selectors import SESSION_KEY
from .service_views import EstablishmentRequiredMixin, ServiceFormView
from .services import (
    director_role,
    establishment_set_up,
    location_create,
    room_create,
    setup_missing,
    setup_role,
)
from .setup_forms import EstablishmentCreateForm, ImportForm, LocationForm, RoomForm

IMPORT_SALT = "ledgers.core.imports"
IMPORT_MAX_AGE = 3600


class EstablishmentCreateView(LoginRequiredMixin, ServiceFormView):
    """The administrator (a superuser) creates an establishment and names its first director;
    the first page an administrator sees while no establishment exists."""

    form_class = EstablishmentCreateForm
    template_name = "core/establishment_create.html"
    errors_on_fields = True

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.user.is_authenticated and not request.user.is_superuser:
            raise PermissionDenied(_("Seul un administrateur peut créer un établissement."))
        return super().dispatch(request, *args, **kwargs)

    def perform(self, form):
        self.director = form.cleaned_data["director"]
        return establishment_set_up(actor=self.request.user, **form.service_arguments())

    def get_success_message(self) -> str:
        est = self.result
        return _("Établissement %(name)s créé ; %(role)s : %(login)s.") % {
            "name": est.name,
            "role": role_label(director_role(est)),
            "login": self.director,
        }

    def get_success_url(self) -> str:
        self.request.session[SESSION_KEY] = self.result.pk
        if roles_of(self.request.user, self.result):
            return reverse("setup")
        return reverse("dashboard")


class SetupMixin(EstablishmentRequiredMixin):
    """The set-up area: the directorate, or an administrator holding no role here."""

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.user.is_authenticated and request.establishment:
            setup_role(request.user, request.establishment)
        return super().dispatch(request, *args, **kwargs)


def _url(name: str) -> str:
    try:
        return reverse(name)
    except NoReverseMatch:
        return ""


class SetupView(SetupMixin, ListExportMixin, TemplateView):
    """The set-up area's hub: what the establishment has, what it still lacks, where each piece is
    added by hand or imported."""

    template_name = "core/setup.html"
    export_name = "mise-en-place"

    def rows(self) -> list[dict]:
        est = self.establishment
        return [
            {
                "spec": spec,
                "count": spec.count(est) if spec.count else None,
                "add_url": _url(spec.add_url) if spec.add_url else "",
                "import_url": reverse("setup-import", kwargs={"code": spec.code}),
            }
            for spec in specs_for(est)
        ]

    def export_lists(self):
        rows = ((str(row["spec"].label), row["count"]) for row in self.rows())
        return {self.export_name: ([_("Objet"), _("Nombre")], rows)}

    def get_context_data(self, **kwargs):
        missing = [
            {"what": gap.what, "url": _url(gap.url_name) if gap.url_name else ""}
            for gap in setup_missing(self.establishment)
        ]
        return super().get_context_data(rows=self.rows(), missing=missing, **kwargs)


class RoomsView(SetupMixin, ListExportMixin, ServiceFormView):
    """The rooms of the establishment; one added, written in the register of authorisations."""

    form_class = RoomForm
    template_name = "core/setup_rooms.html"
    success_message = _("Salle ajoutée et inscrite au registre des habilitations et de la mise en place.")
    export_name = "salles"

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment}

    def get_queryset(self):
        return self.establishment.rooms.order_by("code")

    def export_headers(self):
        return [_("Code"), _("Nom")]

    def export_rows(self, queryset):
        return ((room.code, room.name) for room in queryset)

    def get_context_data(self, **kwargs):
        return super().get_context_data(rooms=self.get_queryset(), **kwargs)

    def perform(self, form):
        return room_create(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)

    def get_success_url(self) -> str:
        return reverse("setup-rooms")


class LocationsView(RoomsView):
    """The places of the establishment (depots, cabinets, cash desks, stores); one added, written in
    the register of authorisations."""

    form_class = LocationForm
    template_name = "core/setup_locations.html"
    success_message = _("Emplacement ajouté et inscrit au registre des habilitations et de la mise en place.")
    export_name = "emplacements"

    def get_queryset(self):
        return self.establishment.locations.select_related("room").order_by("code")

    def export_headers(self):
        return [_("Code"), _("Nom"), _("Type"), _("Salle"), _("En service")]

    def export_rows(self, queryset):
        return (
            (loc.code, loc.name, loc.get_kind_display(), str(loc.room or ""), _("oui") if loc.active else _("non"))
            for loc in queryset
        )

    def get_context_data(self, **kwargs):
        return super().get_context_data(locations=self.get_queryset(), kinds=LocationKind.choices, **kwargs)

    def perform(self, form):
        return location_create(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)

    def get_success_url(self) -> str:
        return reverse("setup-locations")


def signed_rows(spec: RowSpec, establishment, rows: list) -> str:
    return signing.dumps({"spec": spec.code, "est": establishment.pk, "rows": rows}, salt=IMPORT_SALT, compress=True)


def unsigned_rows(spec: RowSpec, establishment, payload: str) -> list:
    try:
        data = signing.loads(payload, salt=IMPORT_SALT, max_age=IMPORT_MAX_AGE)
    except signing.BadSignature as exc:
        raise ValidationError(_("L'aperçu a expiré : déposez le fichier à nouveau.")) from exc
    if data.get("spec") != spec.code or data.get("est") != establishment.pk:
        raise ValidationError(_("L'aperçu a expiré : déposez le fichier à nouveau."))
    return data["rows"]


class ImportView(SetupMixin, TemplateView):
    """A spreadsheet of one kind of object: deposited, previewed (every row through its service,
    rolled back: each refused row's problem by line and column), then confirmed (the same rows
    again, written only if every one is accepted)."""

    template_name = "core/setup_import.html"

    @cached_property
    def spec(self) -> RowSpec:
        try:
            spec = IMPORTS.get(self.kwargs["code"])
        except KeyError as exc:
            raise Http404 from exc
        if self.establishment.jurisdiction not in spec.jurisdictions:
            raise Http404
        return spec

    def get_context_data(self, **kwargs):
        kwargs.setdefault("form", ImportForm())
        return super().get_context_data(spec=self.spec, **kwargs)

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        spec, est = self.spec, self.establishment
        form = ImportForm(request.POST or None, request.FILES or None)
        confirm = "payload" in request.POST
        try:
            if confirm:
                rows = unsigned_rows(spec, est, request.POST["payload"])
                form = ImportForm()
            elif form.is_valid():
                upload = form.cleaned_data["file"]
                rows = read_rows(name=upload.name, data=upload.read(), spec=spec)
            else:
                return self.render_to_response(self.get_context_data(form=form), status=400)
            outcome = import_rows(spec=spec, establishment=est, actor=request.user, rows=rows, commit=confirm)
        except PermissionDenied as exc:
            return self.render_to_response(self.get_context_data(form=form, denied=str(exc)), status=403)
        except ValidationError as exc:
            form.add_error(None, exc.messages)
            return self.render_to_response(self.get_context_data(form=form), status=400)
        if outcome.written:
            messages.success(
                request,
                _("%(n)s lignes importées, chacune inscrite à son registre.") % {"n": outcome.rows},
            )
            return redirect("setup")
        return self.preview(outcome, rows, form)

    def preview(self, outcome: Outcome, rows: list, form: ImportForm) -> HttpResponse:
        payload = signed_rows(self.spec, self.establishment, rows) if outcome.accepted else ""
        status = 200 if outcome.accepted else 409
        return self.render_to_response(
            self.get_context_data(form=form, outcome=outcome, payload=payload), status=status
        )
