"""Generic views for pages that call one service: the user's establishment, and forms whose
refusals (RuleViolation 409, PermissionDenied 403) are shown above the form with every input
kept. Bad input that is not a rule (ValidationError, ValueError from a service) is a form error."""

from collections.abc import Collection

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _
from django.views.generic import FormView

from ledgers.signatures.passkeys import PROBE_HEADER, PasskeyRequired, signing

from .authz import check_typed, holds_one_of, reserved_to, roles_of
from .errors import RuleViolation


class EstablishmentRequiredMixin(LoginRequiredMixin):
    """``self.establishment`` (the one the user works in, 404 if none) and ``self.roles`` there.
    A page of one jurisdiction's texts (``page_jurisdiction``) is not found elsewhere; a page
    reserved to ``page_roles`` refuses the others, naming those roles and ``page_requirement``."""

    page_jurisdiction: str | None = None
    page_roles: Collection[str] = ()
    page_requirement = ""

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.user.is_authenticated:
            if request.establishment is None:
                raise Http404(_("Vous n'êtes affecté à aucun établissement."))
            self.establishment = request.establishment
            self.roles = roles_of(request.user, self.establishment)
            if self.page_jurisdiction and self.establishment.jurisdiction != self.page_jurisdiction:
                raise Http404
            if self.page_roles and not holds_one_of(self.roles, self.page_roles):
                raise PermissionDenied(reserved_to(self.page_roles, self.page_requirement, self.establishment))
        return super().dispatch(request, *args, **kwargs)


class ServiceFormView(FormView):
    """A form whose valid input goes to one service (``perform``); its result is ``self.result``
    when ``get_success_message`` and ``get_success_url`` run."""

    success_message = _("Enregistré.")
    # True: a ValidationError naming visible fields of the form ({"event_at": …}) is shown on those
    # fields; what it says about other arguments goes above the form.
    errors_on_fields = False

    def perform(self, form):
        raise NotImplementedError

    def act_refusal(self) -> RuleViolation | PermissionDenied | None:
        """Why the person may not do the act at all now, asked of the function its service runs
        (None when they may): the form is then not offered, the refusal and its row shown instead."""
        return None

    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        return self.refused_before() or super().get(request, *args, **kwargs)

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        return self.refused_before() or super().post(request, *args, **kwargs)

    def refused_before(self) -> HttpResponse | None:
        refusal = self.act_refusal()
        if isinstance(refusal, RuleViolation):
            return self.refused(None, violation=refusal, status=409)
        if refusal is not None:
            return self.refused(None, denied=str(refusal), status=403)
        return None

    def get_success_message(self) -> str:
        return self.success_message

    def form_valid(self, form):
        if self.request.headers.get(PROBE_HEADER):
            return self.passkey_probe(form)
        try:
            check_typed(form.cleaned_data)
            with signing(getattr(form, "signers", ())):
                self.result = self.perform(form)
        except RuleViolation as exc:
            return self.refused(form, violation=exc, status=409)
        except PermissionDenied as exc:
            return self.refused(form, denied=str(exc), status=403)
        except ValidationError as exc:
            self.add_service_errors(form, exc)
            return self.form_invalid(form)
        except ValueError as exc:
            form.add_error(None, str(exc))
            return self.form_invalid(form)
        messages.success(self.request, self.get_success_message())
        return redirect(self.get_success_url())

    def passkey_probe(self, form) -> JsonResponse:
        """The act tried and never kept: the WebAuthn request options when it waits for the
        signer's passkey (the act's digest as challenge), else null (the form is then sent as it
        is, and shows its refusal if any)."""
        try:
            with transaction.atomic(), signing(getattr(form, "signers", ())):
                check_typed(form.cleaned_data)
                self.perform(form)
                transaction.set_rollback(True)
        except PasskeyRequired as exc:
            return JsonResponse({"publicKey": exc.options, "field": exc.field})
        except (RuleViolation, PermissionDenied, ValidationError, ValueError):
            pass
        return JsonResponse({"publicKey": None})

    def add_service_errors(self, form, exc: ValidationError) -> None:
        if not (self.errors_on_fields and hasattr(exc, "error_dict")):
            form.add_error(None, exc.messages)
            return
        for name, errors in exc.error_dict.items():
            shown = name in form.fields and not form[name].is_hidden
            form.add_error(name if shown else None, errors)

    def refused(self, form, *, status: int, **context) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form, **context), status=status)
