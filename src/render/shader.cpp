// shader.cpp — compiles and links GLSL from files; every compile and link log is shown.
#include "render/shader.hpp"

#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "core/error.hpp"

namespace ls::render {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw DeviceError("cannot read shader " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

/// A shader's or program's info log ("" when empty), through its glGet*iv and glGet*InfoLog.
std::string info_log(GLuint object, PFNGLGETSHADERIVPROC get_iv, PFNGLGETSHADERINFOLOGPROC get_log) {
  GLint length = 0;
  get_iv(object, GL_INFO_LOG_LENGTH, &length);
  if (length <= 1) return {};
  std::vector<char> log(static_cast<std::size_t>(length));
  get_log(object, length, nullptr, log.data());
  return std::string(log.data());
}

GlShader compile(GLenum type, const std::string& path) {
  const std::string source = read_text(path);
  GlShader shader(glCreateShader(type));
  const char* text = source.c_str();
  glShaderSource(shader.get(), 1, &text, nullptr);
  glCompileShader(shader.get());
  GLint ok = GL_FALSE;
  glGetShaderiv(shader.get(), GL_COMPILE_STATUS, &ok);
  const std::string log = info_log(shader.get(), glGetShaderiv, glGetShaderInfoLog);
  if (!log.empty()) std::cerr << "lifestreams: compile log of " << path << ":\n" << log << "\n";
  if (ok != GL_TRUE) throw DeviceError("shader " + path + " failed to compile: " + log);
  return shader;
}

}  // namespace

GlProgram load_program(const std::string& dir, const std::string& vertex_file,
                       const std::string& fragment_file) {
  const std::string vpath = dir + "/" + vertex_file;
  const std::string fpath = dir + "/" + fragment_file;
  GlShader vs = compile(GL_VERTEX_SHADER, vpath);
  GlShader fs = compile(GL_FRAGMENT_SHADER, fpath);
  GlProgram program(glCreateProgram());
  glAttachShader(program.get(), vs.get());
  glAttachShader(program.get(), fs.get());
  glLinkProgram(program.get());
  GLint ok = GL_FALSE;
  glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
  const std::string log = info_log(program.get(), glGetProgramiv, glGetProgramInfoLog);
  if (!log.empty())
    std::cerr << "lifestreams: link log of " << vpath << " + " << fpath << ":\n" << log << "\n";
  if (ok != GL_TRUE) throw DeviceError("shaders " + vpath + " + " + fpath + " failed to link: " + log);
  glDetachShader(program.get(), vs.get());
  glDetachShader(program.get(), fs.get());
  return program;
}

}  // namespace ls::render
