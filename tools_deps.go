package main
import (
 _ "gonum.org/v1/gonum/mat"
 _ "gonum.org/v1/plot"
 _ "github.com/schollz/progressbar/v3"
 _ "gopkg.in/yaml.v3"
 _ "codeberg.org/sbinet/npyio"
)
func main(){}
