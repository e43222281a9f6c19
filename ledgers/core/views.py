"""Pages of the organisation: dashboard, establishment switcher, establishment page, history."""

from django.apps import apps
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views import View
from django.views.generic import TemplateView

from .dashboard import panels_for
from .models import Establishment
from .selectors import SESSION_KEY, establishment_of, establishments_for, history_of


class EstablishmentMixin(LoginRequiredMixin):
    """Pages about the establishment the user works in: 404 when the user belongs to none."""

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.user.is_authenticated:
            if not request.establishment:  # lazy: None inside when the user belongs nowhere
                raise Http404(_("Vous n'êtes affecté à aucun établissement."))
            self.establishment = request.establishment
        return super().dispatch(request, *args, **kwargs)


class DashboardView(LoginRequiredMixin, TemplateView):
    template_name = "core/dashboard.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        est = self.request.establishment
        context["panels"] = panels_for(self.request, est) if est else []
        return context


class EstablishmentSwitchView(LoginRequiredMixin, View):
    """Choose the establishment to work in, among the user's own (POST)."""

    def post(self, request: HttpRequest) -> HttpResponse:
        chosen = get_object_or_404(establishments_for(request.user), pk=request.POST.get("establishment"))
        request.session[SESSION_KEY] = chosen.pk
        messages.info(request, _("Vous travaillez maintenant pour %(name)s.") % {"name": chosen.name})
        target = request.POST.get("next", "/")
        if not url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
            target = "/"
        return HttpResponseRedirect(target)


class EstablishmentView(EstablishmentMixin, TemplateView):
    template_name = "core/establishment.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        est: Establishment = self.establishment
        context.update(
            rooms=est.rooms.all(),
            tables=est.tables.select_related("room"),
            locations=est.locations.select_related("room", "responsible"),
        )
        return context


class ObjectHistoryView(LoginRequiredMixin, TemplateView):
    """The simple-history records of any tracked object of ours, for users of its establishment."""

    template_name = "core/history.html"

    def get_object(self):
        try:
            model = apps.get_model(self.kwargs["app_label"], self.kwargs["model_name"])
        except LookupError as exc:
            raise Http404 from exc
        if not model.__module__.startswith("ledgers.") or not hasattr(model, "history"):
            raise Http404
        obj = get_object_or_404(model, pk=self.kwargs["pk"])
        est = establishment_of(obj)
        if est is None or not establishments_for(self.request.user).filter(pk=est.pk).exists():
            raise Http404
        return obj

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        obj = self.get_object()
        context.update(object=obj, verbose_name=obj._meta.verbose_name, rows=history_of(obj))
        return context
