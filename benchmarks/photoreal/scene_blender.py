"""Builds a photoreal Surakarta scene in Blender and renders its frames with Cycles.

Run inside Blender (it needs ``bpy``, not this project's packages):

    blender -b --factory-startup -P scene_blender.py -- SCENE.json

SCENE.json is written by ``generate.py``; it holds everything in metres, in a world
where the printed sheet lies on z = 0 with its centre at the origin, the sheet's x
(to the right) along +X and the sheet's y (down the page) along -Y. The scene (table,
sheet, lights, camera) is built once; each frame then swaps in its own pieces and,
for hand frames, a hand and forearm, and is written as raw linear float RGBA. The exposure
and the lens distortion are left to the project side, where the truth is known.
"""

from __future__ import annotations

import array
import json
import math
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import bmesh
import bpy
from mathutils import Matrix, Vector, noise

Spec = dict[str, Any]
RGB = tuple[float, float, float]

PIECE_SEGMENTS = 48
"""Sides of a piece's cylinder: enough for a round silhouette at 640x480."""
BEVEL_FRACTION = 0.18
"""Bevel of a piece's edges, as a share of its height."""
IRREGULAR_VARIANTS = 6
"""Distinct meshes per side for shells and pebbles, reused with a random turn."""


# ------------------------------------------------------------------ scene setup


def clear_scene() -> None:
    """Remove the factory cube, light and camera."""
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)


def configure_cycles(spec: Spec) -> None:
    """Cycles on the CPU with the requested samples and the denoiser when this build has one."""
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = int(spec["samples"])
    scene.cycles.use_adaptive_sampling = True
    scene.cycles.adaptive_threshold = 0.02
    scene.cycles.max_bounces = 4
    scene.cycles.diffuse_bounces = 2
    scene.cycles.glossy_bounces = 2
    scene.cycles.transmission_bounces = 0
    scene.cycles.transparent_max_bounces = 2
    scene.cycles.caustics_reflective = False
    scene.cycles.caustics_refractive = False
    scene.cycles.seed = int(spec.get("seed", 0))
    denoisers = scene.cycles.bl_rna.properties["denoiser"].enum_items.keys()
    scene.cycles.use_denoising = "OPENIMAGEDENOISE" in denoisers
    if scene.cycles.use_denoising:
        scene.cycles.denoiser = "OPENIMAGEDENOISE"
    camera = spec["camera"]
    scene.render.resolution_x = int(camera["width"])
    scene.render.resolution_y = int(camera["height"])
    scene.render.resolution_percentage = 100
    scene.render.film_transparent = False
    # Linear light, unclipped: the project side applies the camera's exposure and response.
    scene.render.image_settings.file_format = "OPEN_EXR"
    scene.render.image_settings.color_mode = "RGB"
    scene.render.image_settings.color_depth = "32"


def new_material(name: str) -> tuple[bpy.types.Material, bpy.types.Node]:
    """A node material with its Principled BSDF."""
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    bsdf = material.node_tree.nodes["Principled BSDF"]
    return material, bsdf


def principled(name: str, colour: RGB, roughness: float, specular: float = 0.5,
               clearcoat: float = 0.0) -> bpy.types.Material:
    """A plain Principled BSDF material."""
    material, bsdf = new_material(name)
    bsdf.inputs["Base Color"].default_value = (*colour, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Specular"].default_value = specular
    bsdf.inputs["Clearcoat"].default_value = clearcoat
    bsdf.inputs["Clearcoat Roughness"].default_value = 0.08
    return material


def grained(name: str, light: RGB, dark: RGB, scale: float, roughness: float,
            rings: bool = True) -> bpy.types.Material:
    """Wood (wave bands distorted by noise) or cloth (fine noise) between two colours."""
    material, bsdf = new_material(name)
    nodes, links = material.node_tree.nodes, material.node_tree.links
    coords = nodes.new("ShaderNodeTexCoord")
    mapping = nodes.new("ShaderNodeMapping")
    # Stretch along x so the grain runs lengthwise like sawn timber.
    mapping.inputs["Scale"].default_value = (scale * 0.15, scale, scale) if rings else (
        scale, scale, scale)
    links.new(coords.outputs["Object"], mapping.inputs["Vector"])
    if rings:
        pattern = nodes.new("ShaderNodeTexWave")
        pattern.wave_type = "RINGS"
        pattern.inputs["Scale"].default_value = 2.0
        pattern.inputs["Distortion"].default_value = 6.0
        pattern.inputs["Detail"].default_value = 3.0
    else:
        pattern = nodes.new("ShaderNodeTexNoise")
        pattern.inputs["Scale"].default_value = 40.0
        pattern.inputs["Detail"].default_value = 8.0
    links.new(mapping.outputs["Vector"], pattern.inputs["Vector"])
    ramp = nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].color = (*dark, 1.0)
    ramp.color_ramp.elements[1].color = (*light, 1.0)
    links.new(pattern.outputs["Fac"], ramp.inputs["Fac"])
    links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
    bump = nodes.new("ShaderNodeBump")
    bump.inputs["Strength"].default_value = 0.05 if rings else 0.15
    links.new(pattern.outputs["Fac"], bump.inputs["Height"])
    links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])
    bsdf.inputs["Roughness"].default_value = roughness
    return material


def material_from_spec(name: str, spec: Spec) -> bpy.types.Material:
    """A material from its JSON recipe: kind ``plain``, ``wood`` or ``cloth``."""
    kind = spec["kind"]
    if kind == "plain":
        return principled(name, tuple(spec["colour"]), spec["roughness"],
                          spec.get("specular", 0.5), spec.get("clearcoat", 0.0))
    if kind in ("wood", "cloth"):
        return grained(name, tuple(spec["colour"]), tuple(spec["dark"]), spec["scale"],
                       spec["roughness"], rings=kind == "wood")
    raise ValueError(f"unknown material kind: {kind!r}")


def add_object(name: str, data: bpy.types.ID | None) -> bpy.types.Object:
    """A new object of ``data`` in the scene."""
    obj = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def plane_mesh(name: str, width: float, height: float) -> bpy.types.Mesh:
    """A rectangle centred on the origin with UVs (0, 0) at its bottom-left corner."""
    mesh = bpy.data.meshes.new(name)
    half_w, half_h = width / 2, height / 2
    mesh.from_pydata([(-half_w, -half_h, 0), (half_w, -half_h, 0), (half_w, half_h, 0),
                      (-half_w, half_h, 0)], [], [(0, 1, 2, 3)])
    uv = mesh.uv_layers.new(name="UVMap")
    for loop, coords in zip(uv.data, ((0, 0), (1, 0), (1, 1), (0, 1)), strict=True):
        loop.uv = coords
    return mesh


def build_sheet(spec: Spec) -> None:
    """The printed sheet: the board PNG on slightly rough paper with a faint fibre bump."""
    width, height = spec["sheet"]["size"]
    material, bsdf = new_material("paper")
    nodes, links = material.node_tree.nodes, material.node_tree.links
    texture = nodes.new("ShaderNodeTexImage")
    texture.image = bpy.data.images.load(spec["sheet"]["image"])
    texture.interpolation = "Linear"
    texture.extension = "EXTEND"
    tint = nodes.new("ShaderNodeMixRGB")
    tint.blend_type = "MULTIPLY"
    tint.inputs["Fac"].default_value = 1.0
    tint.inputs["Color2"].default_value = (*spec["sheet"]["paper_colour"], 1.0)
    links.new(texture.outputs["Color"], tint.inputs["Color1"])
    links.new(tint.outputs["Color"], bsdf.inputs["Base Color"])
    fibres = nodes.new("ShaderNodeTexNoise")
    fibres.inputs["Scale"].default_value = 900.0
    bump = nodes.new("ShaderNodeBump")
    bump.inputs["Strength"].default_value = 0.04
    links.new(fibres.outputs["Fac"], bump.inputs["Height"])
    links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])
    bsdf.inputs["Roughness"].default_value = spec["sheet"]["roughness"]
    bsdf.inputs["Specular"].default_value = 0.3
    sheet = add_object("sheet", plane_mesh("sheet", width, height))
    sheet.data.materials.append(material)


def build_table(spec: Spec) -> None:
    """The table the sheet lies on, reaching well past the sheet and the camera's view."""
    table_spec = spec["table"]
    table = add_object("table", plane_mesh("table", table_spec["size"], table_spec["size"]))
    # Paper is a tenth of a millimetre thick; a small gap keeps the two surfaces apart.
    table.location = (table_spec["offset"][0], table_spec["offset"][1], -0.0002)
    table.rotation_euler.z = table_spec["rotation"]
    table.data.materials.append(material_from_spec("table", table_spec["material"]))


def blackbody_light(light: bpy.types.Light, kelvin: float) -> None:
    """Colour a light by its temperature through a Blackbody node."""
    light.use_nodes = True
    nodes, links = light.node_tree.nodes, light.node_tree.links
    emission = nodes["Emission"]
    body = nodes.new("ShaderNodeBlackbody")
    body.inputs["Temperature"].default_value = kelvin
    links.new(body.outputs["Color"], emission.inputs["Color"])


def aim(obj: bpy.types.Object, target: list[float]) -> None:
    """Point an object's -Z axis (lights, cameras) at ``target``."""
    direction = Vector(target) - obj.location
    obj.rotation_euler = direction.to_track_quat("-Z", "Y").to_euler()


def build_light(index: int, spec: Spec) -> None:
    """One lamp: ``area``, ``sun``, ``point`` or ``spot``."""
    kind = spec["kind"]
    light = bpy.data.lights.new(f"light{index}", type=kind.upper())
    if kind == "area":
        light.shape = "RECTANGLE"
        light.size, light.size_y = spec["size"]
    elif kind == "sun":
        light.angle = math.radians(spec["angle_degrees"])
    else:
        light.shadow_soft_size = spec["radius"]
    if kind == "spot":
        light.spot_size = math.radians(spec["cone_degrees"])
        light.spot_blend = spec["blend"]
    # Watts for lamps, irradiance in W/m^2 for the sun.
    light.energy = spec["power"]
    blackbody_light(light, spec["kelvin"])
    obj = add_object(f"light{index}", light)
    obj.location = spec["location"]
    aim(obj, spec["target"])


def build_world(spec: Spec) -> None:
    """A dim ambient light of the room, coloured by temperature."""
    world = bpy.data.worlds.new("room")
    bpy.context.scene.world = world
    world.use_nodes = True
    nodes, links = world.node_tree.nodes, world.node_tree.links
    body = nodes.new("ShaderNodeBlackbody")
    body.inputs["Temperature"].default_value = spec["world"]["kelvin"]
    links.new(body.outputs["Color"], nodes["Background"].inputs["Color"])
    nodes["Background"].inputs["Strength"].default_value = spec["world"]["strength"]


def build_camera(spec: Spec) -> None:
    """A perspective camera with the exact pose and focal length of the truth."""
    data = bpy.data.cameras.new("camera")
    data.sensor_fit = "HORIZONTAL"
    data.sensor_width = spec["camera"]["sensor_mm"]
    data.lens = spec["camera"]["lens_mm"]
    data.clip_start = 0.01
    data.clip_end = 20.0
    camera = add_object("camera", data)
    camera.matrix_world = Matrix(spec["camera"]["matrix_world"])
    bpy.context.scene.camera = camera


# ----------------------------------------------------------------------- pieces


def cylinder_mesh(name: str, radius: float, height: float) -> bpy.types.Mesh:
    """A disc standing on z = 0 with bevelled edges, shaded smooth."""
    mesh = bpy.data.meshes.new(name)
    built = bmesh.new()
    bmesh.ops.create_cone(built, cap_ends=True, segments=PIECE_SEGMENTS, radius1=radius,
                          radius2=radius, depth=height)
    bmesh.ops.translate(built, vec=(0, 0, height / 2), verts=built.verts)
    rims = [edge for edge in built.edges if edge.calc_face_angle(0.0) > math.radians(60)]
    bmesh.ops.bevel(built, geom=rims, offset=BEVEL_FRACTION * height, segments=3,
                    profile=0.5, affect="EDGES")
    # A narrow inset ring takes the smooth shading's turn at the edge, so that the cap
    # itself stays flat instead of shading like a dome.
    caps = [face for face in built.faces if abs(face.normal.z) > 0.999 and len(face.verts) > 4]
    bmesh.ops.inset_individual(built, faces=caps, thickness=min(0.0003, radius * 0.05))
    built.to_mesh(mesh)
    built.free()
    mesh.use_auto_smooth = True
    mesh.auto_smooth_angle = math.radians(35)
    for polygon in mesh.polygons:
        polygon.use_smooth = True
    return mesh


def blob_mesh(name: str, radius: float, height: float, ribbed: bool, seed: int) -> bpy.types.Mesh:
    """An irregular flattened stone or shell: a sphere squashed and lumped by a noise field."""
    mesh = bpy.data.meshes.new(name)
    built = bmesh.new()
    bmesh.ops.create_uvsphere(built, u_segments=32, v_segments=16, radius=1.0)
    offset = Vector((seed * 3.7, seed * 1.3, seed * 2.9))
    stretch = 0.8 + 0.2 * ((seed * 0.618) % 1.0)
    for vertex in built.verts:
        point = vertex.co.copy()
        lump = 1.0 + 0.12 * noise.noise(point * 1.5 + offset)
        if ribbed:
            # Radial ribs of a cockle shell, fading towards its hinge.
            angle = math.atan2(point.y, point.x)
            lump += 0.04 * math.cos(14 * angle) * (1 + point.x) / 2
        vertex.co = Vector((point.x * radius * lump, point.y * radius * stretch * lump,
                            (point.z * lump + 1.0) * height / 2))
    # Flatten the underside so the piece rests on the paper.
    for vertex in built.verts:
        vertex.co.z = max(vertex.co.z, height * 0.08) - height * 0.08
    built.to_mesh(mesh)
    built.free()
    for polygon in mesh.polygons:
        polygon.use_smooth = True
    return mesh


def torus_mesh(name: str, radius: float, thickness: float) -> bpy.types.Mesh:
    """A ring of round section lying in the plane z = 0."""
    mesh = bpy.data.meshes.new(name)
    vertices, faces = [], []
    major, minor = PIECE_SEGMENTS, 12
    for i in range(major):
        around = 2 * math.pi * i / major
        for j in range(minor):
            section = 2 * math.pi * j / minor
            r = radius + thickness / 2 * math.cos(section)
            vertices.append((r * math.cos(around), r * math.sin(around),
                             thickness / 2 * math.sin(section)))
    for i in range(major):
        for j in range(minor):
            a, b = i * minor + j, ((i + 1) % major) * minor + j
            faces.append((a, b, ((i + 1) % major) * minor + (j + 1) % minor,
                          i * minor + (j + 1) % minor))
    mesh.from_pydata(vertices, [], faces)
    for polygon in mesh.polygons:
        polygon.use_smooth = True
    return mesh


class PieceMaker:
    """Makes the objects of one piece set, reusing meshes and materials between frames."""

    def __init__(self, piece_set: Spec) -> None:
        self.set = piece_set
        self.materials: dict[str, bpy.types.Material] = {}
        self.meshes: dict[tuple[Any, ...], bpy.types.Mesh] = {}

    def material(self, key: str, spec: Spec) -> bpy.types.Material:
        """The material called ``key``, made from ``spec`` the first time."""
        if key not in self.materials:
            self.materials[key] = material_from_spec(key, spec)
        return self.materials[key]

    def mesh(self, key: tuple[Any, ...], material_key: str, material: Spec,
             make: Callable[[], bpy.types.Mesh]) -> bpy.types.Mesh:
        """The mesh of ``key``, made (and given its material) the first time it is asked for."""
        if key not in self.meshes:
            mesh = make()
            mesh.materials.append(self.material(material_key, material))
            self.meshes[key] = mesh
        return self.meshes[key]

    def place(self, index: int, piece: Spec) -> list[bpy.types.Object]:
        """The objects of one piece (body, and emblem or rim) at its place on the sheet."""
        side = self.set[piece["side"]]
        radius, height = piece["diameter"] / 2, piece["height"]
        shape = side["shape"]
        colour = piece["side"]
        # Meshes (which carry the material) are shared by pieces of one side and size.
        size_key = (colour, round(radius, 4), round(height, 4))
        if shape == "disc":
            mesh = self.mesh(("disc", *size_key), f"{colour}-body", side["body"],
                             lambda: cylinder_mesh("disc", radius, height))
        else:
            variant = piece["variant"] % IRREGULAR_VARIANTS
            mesh = self.mesh((shape, variant, *size_key), f"{colour}-body", side["body"],
                             lambda: blob_mesh(shape, radius, height, shape == "shell",
                                               variant + 1))
        body = add_object(f"piece{index}", mesh)
        body.location = (piece["x"], piece["y"], 0.0)
        body.rotation_euler.z = piece["turn"]
        made = [body]
        if "emblem" in side:
            made += self.emblem(index, piece, side, radius, height)
        if "rim" in side:
            thickness = side["rim"]["thickness"]
            rim_mesh = self.mesh(("rim", *size_key), f"{colour}-rim", side["rim"]["material"],
                                 lambda: torus_mesh("rim", radius - thickness / 2, thickness))
            rim = add_object(f"rim{index}", rim_mesh)
            rim.location = (piece["x"], piece["y"], height - thickness / 2)
            made.append(rim)
        return made

    def emblem(self, index: int, piece: Spec, side: Spec, radius: float,
               height: float) -> list[bpy.types.Object]:
        """A printed ring on the top face: a thin contrasting disc with a body-coloured centre."""
        ink = 0.0001
        made = []
        for layer, (share, key) in enumerate(((0.62, "emblem"), (0.34, "body"))):
            disc_radius = radius * share
            spec = side["emblem"] if key == "emblem" else side["body"]
            mesh = self.mesh(("emblem", piece["side"], layer, round(disc_radius, 4)),
                             f"{piece['side']}-{key}", spec,
                             lambda r=disc_radius: cylinder_mesh("emblem", r, ink))
            disc = add_object(f"emblem{index}-{layer}", mesh)
            # The ring's centre disc lies on the emblem disc, which lies on the top face.
            disc.location = (piece["x"], piece["y"], height + layer * ink)
            made.append(disc)
        return made


# ------------------------------------------------------------------------- hand

KNUCKLES = 0.35
"""Where the knuckles are, ahead of the palm's centre, as a share of the palm's length."""
FINGER_BEND = 0.55
"""Where a finger bends, as a share of its length from the knuckle."""
FINGER_CURL_SHORTENS = 0.3
"""How much a fully curled finger's last part shortens, seen from above."""


def build_hand(spec: Spec, skin: bpy.types.Material) -> bpy.types.Object:
    """A forearm and hand from metaball capsules and ellipsoids, reaching towards a point.

    ``spec`` gives the fingertip target on the sheet, the direction the arm comes
    from (radians, in the sheet plane), the height of the palm above the paper, the
    hand's scale and how far the fingers curl down.
    """
    ball = bpy.data.metaballs.new("hand")
    ball.resolution = 0.004
    ball.render_resolution = 0.004
    ball.threshold = 0.6
    scale = spec["scale"]
    forward = Vector((math.cos(spec["from_angle"] + math.pi),
                      math.sin(spec["from_angle"] + math.pi), 0.0))
    across = Vector((-forward.y, forward.x, 0.0))
    tip = Vector((*spec["target"], spec["palm_height"] * 0.5))
    palm_length = 0.095 * scale
    finger_length = 0.072 * scale
    curl = spec["curl"]
    # Back from the target by the middle finger's reach from the palm's centre, so that its
    # tip is over the target: a hand short of it may reach no farther than the margin.
    reach = palm_length * KNUCKLES + finger_length * (
        FINGER_BEND + (1 - FINGER_BEND) * (1 - FINGER_CURL_SHORTENS * curl))
    palm_centre = tip - forward * reach
    palm_centre.z = spec["palm_height"]
    wrist = palm_centre - forward * palm_length / 2
    elbow = wrist - forward * 0.26 * scale
    elbow.z = spec["palm_height"] + spec["arm_rise"]

    def capsule(start: Vector, end: Vector, radius: float) -> None:
        element = ball.elements.new(type="CAPSULE")
        element.co = (start + end) / 2
        element.size_x = (end - start).length / 2
        element.radius = radius
        element.rotation = (end - start).to_track_quat("X", "Z")

    def ellipsoid(centre: Vector, axes: tuple[float, float, float], towards: Vector) -> None:
        element = ball.elements.new(type="ELLIPSOID")
        element.co = centre
        # An ellipsoid's half-axes are its radius times its sizes.
        # The surface lies inside the field's radius; 1.3 brings it out to the given axes.
        element.radius = max(axes) * 1.3
        element.size_x, element.size_y, element.size_z = (axis / max(axes) for axis in axes)
        element.rotation = towards.to_track_quat("X", "Z")

    capsule(elbow, wrist, 0.032 * scale)
    ellipsoid(palm_centre, (palm_length * 0.45, 0.04 * scale, 0.012 * scale), forward)
    knuckle_line = palm_centre + forward * palm_length * KNUCKLES
    for finger in range(4):
        sideways = (finger - 1.5) * 0.019 * scale
        length = finger_length * (0.85, 1.0, 0.95, 0.75)[finger]
        base = knuckle_line + across * sideways
        middle = base + forward * length * FINGER_BEND + Vector((0, 0, -curl * length * 0.3))
        end = middle + forward * length * (1 - FINGER_BEND) * (
            1 - curl * FINGER_CURL_SHORTENS) + Vector((0, 0, -curl * length * 0.45))
        end.z = max(end.z, 0.012)
        capsule(base, middle, 0.0115 * scale)
        capsule(middle, end, 0.0105 * scale)
    thumb_base = wrist + forward * palm_length * 0.3 + across * 0.035 * scale * spec["thumb_side"]
    thumb_tip = thumb_base + forward * 0.05 * scale + across * 0.02 * scale * spec["thumb_side"]
    thumb_tip.z -= 0.015 * scale
    capsule(thumb_base, thumb_tip, 0.011 * scale)
    hand = add_object("hand", ball)
    hand.data.materials.append(skin)
    return hand


def skin_material(spec: Spec) -> bpy.types.Material:
    """Skin: a warm, soft sheen; subsurface scattering would double the render time."""
    material = principled("skin", tuple(spec["colour"]), 0.55, 0.4)
    material.node_tree.nodes["Principled BSDF"].inputs["Sheen"].default_value = 0.3
    return material


# ------------------------------------------------------------------------- main


def save_linear(exr: str, output: str) -> None:
    """Copy the rendered EXR's pixels to a raw file: float32 RGBA, rows from the bottom.

    The project's OpenCV may be built without OpenEXR, and the Python of a packaged
    Blender may lack NumPy; a raw array both sides can read without either.
    """
    image = bpy.data.images.load(exr)
    width, height = image.size
    pixels = array.array("f", bytes(4 * 4 * width * height))
    image.pixels.foreach_get(pixels)
    bpy.data.images.remove(image)
    os.remove(exr)
    with open(output, "wb") as handle:
        pixels.tofile(handle)


def render_frames(spec: Spec) -> None:
    """Render every frame of the scene, swapping pieces and hands in between."""
    maker = PieceMaker(spec["piece_set"])
    skin = skin_material(spec["skin"])
    scene = bpy.context.scene
    for frame in spec["frames"]:
        started = time.perf_counter()
        made: list[bpy.types.Object] = []
        for index, piece in enumerate(frame["pieces"]):
            made += maker.place(index, piece)
        if frame.get("hand"):
            made.append(build_hand(frame["hand"], skin))
        exr = frame["output"] + ".exr"
        scene.render.filepath = exr
        bpy.ops.render.render(write_still=True)
        save_linear(exr, frame["output"])
        for obj in made:
            bpy.data.objects.remove(obj, do_unlink=True)
        # One parseable line per frame, for the generator's timing report.
        print(f"RENDERED {frame['output']} {time.perf_counter() - started:.2f}", flush=True)


def main() -> None:
    arguments = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if len(arguments) != 1:
        raise SystemExit("usage: blender -b --factory-startup -P scene_blender.py -- SCENE.json")
    with open(arguments[0], encoding="utf-8") as handle:
        spec = json.load(handle)
    clear_scene()
    configure_cycles(spec)
    build_table(spec)
    build_sheet(spec)
    for index, light in enumerate(spec["lights"]):
        build_light(index, light)
    build_world(spec)
    build_camera(spec)
    render_frames(spec)


main()
