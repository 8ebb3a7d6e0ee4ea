"""The staff screens, composed of each role's package's URLs: sign-in and each
role's home page (staff.common), the cage (CA1–CA6, and the tournament desk), the
manager's approvals, terminal keys and player protection (PP1–PP7), the auditor's
reports (BI8) and the floor (WL1–WL10, DC2, RK8, and the tournament director's
screens). Every name is ``staff:…``; the old addresses are staff.redirects'."""

from staff.auditor import urls as auditor
from staff.cage import urls as cage
from staff.common import urls as common
from staff.floor import urls as floor
from staff.manager import urls as manager

app_name = "staff"

urlpatterns = [
    *common.urlpatterns,
    *cage.urlpatterns,
    *manager.urlpatterns,
    *auditor.urlpatterns,
    *floor.urlpatterns,
]
