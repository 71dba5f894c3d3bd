"""The [web] config section and ``surakarta web-token``."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.config import WebConfig, check_config, load_config


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "board.toml"
    path.write_text(f'[journal]\npath = "{tmp_path}/state/journal.json"\n{text}')
    return path


def test_without_a_web_section_nothing_is_served(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, "")).web is None


def test_web_section_gives_the_address_and_port(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, "[web]\n")).web == WebConfig("0.0.0.0", 8080)
    config = load_config(write(tmp_path, '[web]\naddress = "127.0.0.1"\nport = 8181\n'))
    assert config.web == WebConfig("127.0.0.1", 8181)


@pytest.mark.parametrize(("text", "problem"), [
    ('address = "my-board"', "web.address: expected an IP address"),
    ("port = 0", "web.port: must be 1 to 65535, got 0"),
    ('port = "80"', "web.port: expected int"),
    ("colour = 1", "web.colour: unknown key"),
])
def test_bad_web_settings_are_named(tmp_path: Path, text: str, problem: str) -> None:
    problems = check_config(write(tmp_path, f"[web]\n{text}\n"))
    assert any(p.startswith(problem) for p in problems), problems


def test_web_token_is_shown_kept_private_and_replaced_on_request(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write(tmp_path, '[web]\naddress = "127.0.0.1"\nport = 8181\n')
    assert main(["web-token", "--config", str(config)]) == 0
    token, link = capsys.readouterr().out.splitlines()
    path = tmp_path / "state" / "web-token"
    assert path.read_text().strip() == token and len(token) >= 24
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert link == f"pair a phone by opening http://127.0.0.1:8181/#token={token}"
    assert main(["web-token", "--config", str(config)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == token
    assert main(["web-token", "--config", str(config), "--new"]) == 0
    assert capsys.readouterr().out.splitlines()[0] not in ("", token)


def test_a_token_file_others_can_read_is_one_clear_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write(tmp_path, "")
    main(["web-token", "--config", str(config)])
    (tmp_path / "state" / "web-token").chmod(0o644)
    assert main(["web-token", "--config", str(config)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("surakarta web-token: the token file") and "chmod 600" in error
