// The settings every Assimp read of a model file takes here (rigged_model.cc,
// and gltf_splice.cc's conversion of FBX and COLLADA to glTF): the file's own
// nodes, bones and names, in metres, as Blender's importers read them.
#pragma once

#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/Importer.hpp>

namespace mocap::detail {

inline void set_import_properties(Assimp::Importer& importer) {
  // FBX: one node per Model, not Assimp's $AssimpFbx$_Translation,
  // _PreRotation, ... helper nodes, which a converted file would carry as
  // bones of the character.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
  // COLLADA: nodes called by the names the file gives them
  // (`mixamorig:Hips`), not by Assimp's ids (`mixamorig_Hips`): engines find
  // bones by name.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_USE_COLLADA_NAMES, true);
}

// With aiProcess_GlobalScale among the read's flags, the file's unit (an
// FBX's UnitScaleFactor: centimetres unless it says otherwise) becomes
// metres, glTF's unit, as Blender's importer reads it.
inline constexpr unsigned kImportInMetres = aiProcess_GlobalScale;

}  // namespace mocap::detail
