"""REG-22: every regulator's access to register content is logged. The middleware looks only at
the few views that show or hand out register content (``access.LOGGED_VIEWS``) and at successful
answers, so other requests cost nothing."""

from django.http import HttpRequest, HttpResponse

from ledgers.core.models import Membership
from ledgers.core.roles import REGULATOR_ROLES
from ledgers.registers.models import Register
from ledgers.reports.models import ReportJob

from .access import LOGGED_VIEWS
from .models import AccessLog, SeasonArchive


def _target(view_name: str, kwargs: dict) -> tuple[int | None, str]:
    """The establishment whose content the view shows, and what it shows, in words."""
    if "pk" in kwargs and view_name in ("reports:job_file", "api-report-file"):
        job = ReportJob.objects.filter(pk=kwargs["pk"]).values("establishment_id", "register__number").first()
        if job is None:
            return None, ""
        return job["establishment_id"], f"rapport {kwargs['pk']} {job['register__number'] or ''}".strip()
    if view_name in ("authority:archive_file", "authority-archive-file"):
        archive = SeasonArchive.objects.filter(pk=kwargs["pk"]).values("establishment_id", "season").first()
        return (archive["establishment_id"], f"archive {archive['season']}") if archive else (None, "")
    number = kwargs.get("number") or kwargs.get("register_number")
    est = Register.objects.filter(number=number).values_list("establishment_id", flat=True).first()
    seq = kwargs.get("seq")
    return est, f"{number} n° {seq}" if seq else str(number)


class RegulatorAccessLogMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        match = request.resolver_match
        action = LOGGED_VIEWS.get(match.view_name) if match else None
        if action is None or response.status_code != 200 or not request.user.is_authenticated:
            return response
        establishment_id, target = _target(match.view_name, match.kwargs)
        roles = sorted(
            Membership.objects.filter(
                user=request.user, establishment_id=establishment_id, role__in=REGULATOR_ROLES
            ).values_list("role", flat=True)
        )
        if roles:
            AccessLog.objects.create(
                establishment_id=establishment_id,
                user=request.user,
                roles=",".join(roles),
                action=action,
                target=target[:200],
                path=request.get_full_path()[:500],
            )
        return response
