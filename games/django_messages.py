"""Django's own messages that the site's pages show, listed so the site's catalogues hold them.

Django translates these into Indonesian, but it has no Sundanese catalogue: without them in the
site's own `su` catalogue, a Sundanese sign-up page would show its form errors in English.
Listing them here (never imported: only read when the catalogues are made, by makemessages
and by the completeness test) puts them in every catalogue of the site, where the site's
translations come first. The texts must stay exactly Django's (django/conf/locale and
django/contrib/auth/locale), so each is looked up under Django's own msgid.
"""

from django.utils.translation import gettext_noop, ngettext_lazy

FORM_FIELDS = (
    gettext_noop("This field is required."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("Enter a whole number."),
    gettext_noop("Ensure this value is greater than or equal to %(limit_value)s."),
    gettext_noop("Ensure this value is less than or equal to %(limit_value)s."),
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
    ngettext_lazy(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
    ),
)

ACCOUNTS = (
    gettext_noop("username"),
    gettext_noop("email address"),
    gettext_noop("first name"),
    gettext_noop("last name"),
    gettext_noop("Email"),
    gettext_noop("Password"),
    gettext_noop("Password confirmation"),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop("A user with that username already exists."),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ "
        "characters."
    ),
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
    gettext_noop("This account is inactive."),
    gettext_noop("Old password"),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    gettext_noop("New password"),
    gettext_noop("New password confirmation"),
)

# How long a player has waited (`timesince`, in the `waited` filter).
TIME_SINCE = (
    ngettext_lazy("%(num)d year", "%(num)d years"),
    ngettext_lazy("%(num)d month", "%(num)d months"),
    ngettext_lazy("%(num)d week", "%(num)d weeks"),
    ngettext_lazy("%(num)d day", "%(num)d days"),
    ngettext_lazy("%(num)d hour", "%(num)d hours"),
    ngettext_lazy("%(num)d minute", "%(num)d minutes"),
    gettext_noop(", "),
)

# Dates the pages and e-mails write out: "5 December 2026", "Sat 5 Dec" (django.utils.dates).
MONTHS = (
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
)
MONTHS_3 = (
    gettext_noop("jan"), gettext_noop("feb"), gettext_noop("mar"), gettext_noop("apr"),
    gettext_noop("may"), gettext_noop("jun"), gettext_noop("jul"), gettext_noop("aug"),
    gettext_noop("sep"), gettext_noop("oct"), gettext_noop("nov"), gettext_noop("dec"),
)  # fmt: skip
WEEKDAYS_ABBR = (
    gettext_noop("Mon"), gettext_noop("Tue"), gettext_noop("Wed"), gettext_noop("Thu"),
    gettext_noop("Fri"), gettext_noop("Sat"), gettext_noop("Sun"),
)  # fmt: skip

PASSWORD_VALIDATORS = (
    gettext_noop("This password is too common."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
    ),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
    ),
)
