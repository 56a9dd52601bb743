"""Admin for follows and blocks: staff may look (a complaint, a moderation question).

Players make and lift them from the site (`games/services/people.py`); staff changing them by
hand would act in a player's name, so these screens only read.
"""

from django.contrib import admin

from games.admin.base import ReadOnlyAdmin
from games.models import Block, Follow


@admin.register(Follow)
class FollowAdmin(ReadOnlyAdmin[Follow]):
    list_display = ["follower", "followed", "created_at"]
    search_fields = ["follower__username", "followed__username"]
    list_select_related = ["follower", "followed"]


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin[Block]):
    list_display = ["blocker", "blocked", "created_at"]
    search_fields = ["blocker__username", "blocked__username"]
    list_select_related = ["blocker", "blocked"]
