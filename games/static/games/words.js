// The site's words for its scripts. Django's catalogue (/jsi18n/, loaded just before this file)
// defines gettext, ngettext and interpolate in the reader's language; should it fail to load,
// these keep the scripts working, in English.
(function () {
  "use strict";

  window.gettext = window.gettext || function (text) { return text; };
  window.ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  window.interpolate = window.interpolate || function (text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };
})();
