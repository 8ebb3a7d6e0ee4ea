"""The staff screens: sign-in, each role's home page, the cage (CA1–CA6), the
manager's approvals, terminal keys and player protection (PP1–PP7: players,
held awards, the exclusion list, the settings), the floor
(WL1–WL10, DC2, RK8) and the auditor's reports (BI8)."""

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
