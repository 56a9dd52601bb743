"""Settings come from the environment; production settings pass Django's deploy check."""

import json
import os
import subprocess
import sys
from pathlib import Path

from django.core.management.utils import get_random_secret_key

from tests.servers import env_file

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION_KEY = "k8#Vq2!pZ7rT0xW4mL9sB3nY6cF1hJ5dG8aE2uI7oP0eR3tY6wQ9zX4vN1mK8jH5gL"


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    # A clean environment: none of this test run's own settings leak into the child.
    inherited = {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    base = {k: v for k, v in os.environ.items() if k not in inherited}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "hearts_site.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def production_env(**extra: str) -> dict[str, str]:
    return {
        "DEBUG": "0",
        "SECRET_KEY": PRODUCTION_KEY,
        "ALLOWED_HOSTS": "hearts.example.com",
        **extra,
    }


def test_production_settings_pass_the_deploy_check_without_a_warning():
    result = run_python(
        "import django, sys; django.setup(); from django.core.management import call_command;"
        "call_command('check', deploy=True, fail_level='WARNING')",
        **production_env(),
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout + result.stderr


def test_the_deployment_example_environment_passes_the_deploy_check():
    example = env_file(ROOT / "deploy" / "hearts.env.example")
    assert example["SECRET_KEY"] == "", "the example must not publish a key anyone could use"
    # What every process of a deployment reads, with the key an operator is told to make.
    result = run_python(
        "import django, sys; django.setup(); from django.core.management import call_command;"
        "call_command('check', deploy=True, fail_level='WARNING')",
        **{**example, "SECRET_KEY": get_random_secret_key()},
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout + result.stderr


def test_debug_off_without_a_secret_key_refuses_to_start():
    result = run_python("import django; django.setup()", DEBUG="0")
    assert result.returncode != 0
    assert "Set SECRET_KEY when DEBUG is off." in result.stderr


def test_the_default_database_is_sqlite_in_wal_mode(tmp_path):
    database = tmp_path / "site.sqlite3"
    result = run_python(
        "import django; django.setup(); from django.db import connection;"
        "cursor = connection.cursor(); cursor.execute('PRAGMA journal_mode');"
        "print(cursor.fetchone()[0])",
        DATABASE_URL=f"sqlite:///{database}",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "wal"


def test_redis_url_switches_the_channel_layer_and_cache_to_redis():
    code = (
        "import json, django; django.setup(); from django.conf import settings;"
        "print(json.dumps([settings.CHANNEL_LAYERS['default']['BACKEND'],"
        " settings.CACHES['default']['BACKEND']]))"
    )
    with_redis = json.loads(run_python(code, REDIS_URL="redis://127.0.0.1:6379/0").stdout)
    without = json.loads(run_python(code).stdout)
    assert with_redis == [
        "channels_redis.core.RedisChannelLayer",
        "django_redis.cache.RedisCache",
    ]
    assert without == [
        "channels.layers.InMemoryChannelLayer",
        "django.core.cache.backends.locmem.LocMemCache",
    ]


def test_database_url_selects_postgresql():
    result = run_python(
        "import django; django.setup(); from django.conf import settings;"
        "print(settings.DATABASES['default']['ENGINE'], settings.DATABASES['default']['NAME'])",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/hearts",
    )
    assert result.stdout.split() == ["django.db.backends.postgresql", "hearts"]


def test_postgresql_prepares_statements_unless_told_not_to():
    code = (
        "import json, django; django.setup(); from django.conf import settings;"
        "options = settings.DATABASES['default']['OPTIONS'];"
        "print(json.dumps([options.get('server_side_binding'), options.get('prepare_threshold')]))"
    )
    url = "postgres://postgres@127.0.0.1:5432/hearts"
    prepared = json.loads(run_python(code, DATABASE_URL=url).stdout)
    unprepared = json.loads(
        run_python(code, DATABASE_URL=url, DATABASE_PREPARED_STATEMENTS="0").stdout
    )
    assert prepared == [True, 5]
    assert unprepared == [None, None]
