from django.contrib import admin

from games.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user"]
    search_fields = ["display_name", "user__username", "user__email"]
