# Writes OUT, a C++ file defining `const char* const NAMESPACE::SYMBOL` = the text of IN (a raw
# string literal). Used for the value network's weights (data/nets/value.txt).
file(READ ${IN} text)
string(FIND "${text}" ")carcembed\"" bad)
if(NOT bad EQUAL -1)
  message(FATAL_ERROR "${IN} contains the raw string delimiter")
endif()
file(WRITE ${OUT} "// Generated from ${IN} by cmake/embed_text.cmake; do not edit.\nnamespace ${NAMESPACE} {\nextern const char* const ${SYMBOL};\nconst char* const ${SYMBOL} = R\"carcembed(${text})carcembed\";\n}\n")
