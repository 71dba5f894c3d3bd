"""The network that tells a piece's set where its colours leave it open (vision.set_net)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.geometry import parse_point
from controller.reading import BoardReading
from vision import set_forest
from vision.colour import PointLabel
from vision.config import VisionConfig
from vision.reader import FrameReading, ReadStatus
from vision.sampling import sampling_layout
from vision.set_net import (
    CHANNELS,
    LAYERS,
    NET_SURE,
    PATCH_SIZE,
    PatchNet,
    net_inputs,
    patches,
    shipped_net,
)

LABELLED = Path(__file__).parent / "data" / "set_net_patches.npz"
"""Patches of pieces whose set the reader left open in Blender renders the network was not
trained on (seeds 4001 and 4101), with the paper each was judged against, the sets' colours
and the set each truly was of."""

SHAPES = {"conv0": (24, CHANNELS, 3, 3), "conv1": (24, 24, 3, 3), "conv2": (48, 24, 3, 3),
          "conv3": (48, 48, 3, 3), "dense0": (48, 96), "dense1": (1, 48)}


def write_net(path: Path, seed: int = 0, members: int = 1) -> Path:
    generator = np.random.default_rng(seed)
    weights = {}
    for member in range(members):
        for layer, shape in SHAPES.items():
            weights[f"member{member}.{layer}.weight"] = generator.normal(
                0.0, 0.05, shape).astype(np.float32)
            weights[f"member{member}.{layer}.bias"] = generator.normal(
                0.0, 0.1, shape[0]).astype(np.float32)
    np.savez(path, **weights)
    return path


def test_a_convolution_is_the_images_filtered_by_each_kernel(tmp_path: Path) -> None:
    net = PatchNet(write_net(tmp_path / "net.npz"))
    generator = np.random.default_rng(1)
    x = generator.normal(size=(2, CHANNELS, PATCH_SIZE, PATCH_SIZE)).astype(np.float32)
    out = net.members[0].convolve(x, "conv0")
    weight = np.load(tmp_path / "net.npz")["member0.conv0.weight"]
    bias = np.load(tmp_path / "net.npz")["member0.conv0.bias"]
    # Output channel 5 of the second patch: the sum over input channels of each filtered
    # with its kernel (correlation, zeros past the edge), plus the bias.
    expected = sum(cv2.filter2D(x[1, channel], -1, weight[5, channel],
                                borderType=cv2.BORDER_CONSTANT)
                   for channel in range(CHANNELS)) + bias[5]
    np.testing.assert_allclose(out[1, 5], expected, atol=1e-4)


def test_a_piece_is_judged_alike_however_its_patch_is_turned(tmp_path: Path) -> None:
    net = PatchNet(write_net(tmp_path / "net.npz"))
    generator = np.random.default_rng(2)
    x = generator.normal(size=(3, CHANNELS, PATCH_SIZE, PATCH_SIZE)).astype(np.float32)
    share = net.share(x)
    assert share.shape == (3,) and ((share > 0) & (share < 1)).all()
    np.testing.assert_allclose(net.share(np.rot90(x, 1, axes=(2, 3)).copy()), share,
                               atol=1e-5)
    np.testing.assert_allclose(net.share(x[..., ::-1].copy()), share, atol=1e-5)
    assert net.share(x[:0]).shape == (0,)


def test_a_file_that_is_no_network_is_refused_in_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a network")
    with pytest.raises(ValueError, match="not a patch network") as refused:
        PatchNet(broken)
    assert "\n" not in str(refused.value)
    partial = tmp_path / "partial.npz"
    with np.load(write_net(tmp_path / "net.npz")) as data:
        np.savez(partial, **{name: data[name] for name in data.files if "dense1" not in name})
    with pytest.raises(ValueError, match=r"no member0\.dense1\.weight, member0\.dense1\.bias"):
        PatchNet(partial)


def test_the_members_shares_are_averaged(tmp_path: Path) -> None:
    pair = PatchNet(write_net(tmp_path / "pair.npz", members=2))
    with np.load(tmp_path / "pair.npz") as data:
        for member in range(2):
            np.savez(tmp_path / f"alone{member}.npz", **{
                name.replace(f"member{member}.", "member0."): data[name]
                for name in data.files if name.startswith(f"member{member}.")})
    x = np.random.default_rng(3).normal(
        size=(4, CHANNELS, PATCH_SIZE, PATCH_SIZE)).astype(np.float32)
    each = [PatchNet(tmp_path / f"alone{member}.npz").share(x) for member in range(2)]
    assert len(pair.members) == 2 and not np.allclose(each[0], each[1], atol=1e-3)
    np.testing.assert_allclose(pair.share(x), (each[0] + each[1]) / 2, atol=1e-6)


def test_a_patch_is_the_view_round_its_point_at_the_canonical_pitch() -> None:
    layout = sampling_layout(VisionConfig(), 6)
    view = np.zeros((layout.view_size, layout.view_size, 3), np.uint8)
    # A bright dot on the view at d3 (index 2 * 6 + 3), the middle of its patch.
    x = int((3 + layout.margin) * layout.pitch_px)
    y = int((6 - 1 - 2 + layout.margin) * layout.pitch_px)
    view[y, x] = 255
    around = patches(layout, view, np.array([15, 0]))
    assert around.shape == (2, PATCH_SIZE, PATCH_SIZE, 3)
    assert around[0, PATCH_SIZE // 2, PATCH_SIZE // 2].tolist() == [255, 255, 255]
    assert around[0].sum() == 3 * 255 and around[1].sum() == 0


def test_the_inputs_are_the_log_colour_against_the_paper_and_each_set() -> None:
    pixels = np.full((1, PATCH_SIZE, PATCH_SIZE, 3), 100, np.uint8)
    inputs = net_inputs(pixels, np.array([[200.0, 200.0, 200.0]]), np.array([-0.1, 0, 0]),
                        np.array([-2.0, -2.0, -2.0]))
    assert inputs.shape == (1, CHANNELS, PATCH_SIZE, PATCH_SIZE)
    half = np.log(0.5)
    np.testing.assert_allclose(inputs[0, :, 0, 0], [half, half, half, half + 0.1, half, half,
                                                    half + 2, half + 2, half + 2], atol=1e-5)


def test_the_shipped_network_loads_and_tells_unseen_pieces_rightly() -> None:
    net = shipped_net()
    assert net is not None, "the package ships vision/models/set_net.npz"
    assert net.members and all(f"{layer}.weight" in member.weights
                               for member in net.members for layer in LAYERS)
    with np.load(LABELLED) as data:
        inputs = net_inputs(data["patches"], data["paper"], data["means"][:, :3],
                            data["means"][:, 3:])
        pale = data["pale"]
    assert len(pale) >= 10
    share = net.share(inputs)
    # Every piece it is sure of is told rightly, and it is sure of some of each set.
    sure = (share >= NET_SURE) | (share <= 1 - NET_SURE)
    assert ((share[sure] >= 0.5) == pale[sure]).all()
    assert sure[pale].any() and sure[~pale].any()


def test_a_red_top_mirroring_a_pendant_lamp_white_is_told_by_its_edge(
        room_reading: Callable[[str], FrameReading], monkeypatch: pytest.MonkeyPatch) -> None:
    # Glossy red and black pieces under a pendant lamp (Blender seed 4101, which neither the
    # forest nor the network was trained on). The red top on c4 mirrors the lamp white over
    # its whole face; only a thin red edge is left. Its colours leave its set open, and the
    # forest leans to red without being sure (0.92 of its votes); the network is sure.
    truth = BoardReading.parse("b3b1/4b1/bbr1r1/b2b1b/1r1r2/rbb2r")
    frame = room_reading("red-edge-pendant")
    assert (frame.status, frame.reading) == (ReadStatus.OK, truth)
    monkeypatch.setattr(set_forest, "shipped_net", lambda: None)
    alone = room_reading("red-edge-pendant")
    assert alone.doubtful == (parse_point("c4", 6),)
    assert set(alone.choices[0]) == {PointLabel.RED, PointLabel.BLACK}


def test_a_black_top_mirroring_the_lamp_read_surely_as_red_is_doubted_by_the_network(
        room_reading: Callable[[str], FrameReading], monkeypatch: pytest.MonkeyPatch) -> None:
    # Gold-rimmed glossy red and black pieces under a wide lens (Blender seed 4201, rendered
    # after the network was trained). Three of red's start tops mirrored the lamp, so red's
    # colour reaches the paper's; the black top on b1 mirrors it too, and is read surely as
    # red. The forest gives it 0.61 of its votes for red; the network is sure it is black.
    truth = BoardReading.parse("1b2b1/rr3r/5b/1r1r2/1r1b2/bb2r1")
    frame = room_reading("black-mirroring-gold-rimmed-wide")
    assert frame.status is ReadStatus.DOUBTFUL and frame.allows(truth)
    assert frame.doubtful == (parse_point("b1", 6),)
    assert set(frame.choices[0]) == {PointLabel.RED, PointLabel.BLACK}
    # Without its word against the set read, the network tells the red top on e1 and the
    # board is read wrongly.
    monkeypatch.setattr(set_forest, "NET_CONTRADICTING", 1.01)
    wrong = room_reading("black-mirroring-gold-rimmed-wide")
    assert wrong.reading is not None and wrong.reading != truth


def test_the_network_s_word_stands_where_the_forest_does_not_plainly_disagree(
        room_reading: Callable[[str], FrameReading], monkeypatch: pytest.MonkeyPatch) -> None:
    # Glossy red and black pieces under a wide lens (Blender seed 4301, which no model was
    # trained on). The black top on e3 catches the lamp; its colours leave its set open, the
    # forest leans a little to red (0.57 of its votes) and the networks are sure it is
    # black.
    truth = BoardReading.parse("1r4/b3b1/b3b1/b3bb/b5/rb1bbb")
    frame = room_reading("forest-unsure-black-wide")
    assert (frame.status, frame.reading) == (ReadStatus.OK, truth)
    # Where the forest had to lean the same way, e3 was left to the game.
    monkeypatch.setattr(set_forest, "FOREST_AGREES", 0.5)
    leaning = room_reading("forest-unsure-black-wide")
    assert leaning.doubtful == (parse_point("e3", 6),)
    assert set(leaning.choices[0]) == {PointLabel.RED, PointLabel.BLACK}
