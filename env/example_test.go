package env_test

import (
	"fmt"

	"github.com/urim-rl/urim/env"
)

// A game is a plain value: play moves, read the board, ask for the result.
func Example() {
	g, err := env.Preset("urim")
	if err != nil {
		panic(err)
	}
	s := g.Start()
	for _, a := range []int{5, 0, 4} {
		s.Play(a)
	}
	fmt.Println(s.String())
	fmt.Println("to move:", s.ToMove(), "legal:", s.Legal().Actions())
	// Output:
	// 3,3,3,3,0,1/1,6,5,4,4,3 0-0 N 3 h:3,3,3,3,3,3/3,3,3,3,3,3:5.0.4
	// to move: 1 legal: [0 1 2 3 4 5]
}

// Apply checks the action and leaves the original state untouched.
func ExampleState_Apply() {
	g, _ := env.Preset("urim")
	s, _ := g.ParsePosition("0,0,0,0,0,4/3,2,1,1,0,1 24-0 S 0")
	next, err := s.Apply(5)
	fmt.Println(next.String(), err)
	_, err = s.Apply(0)
	fmt.Println(err)
	// Output:
	// 0,0,0,0,0,0/0,0,0,0,0,1 35-0 N 1 <nil>
	// env: illegal action 0: its pit is empty (legal: [5])
}

// A finished game is scored from its final stores.
func ExampleState_MatchPoints() {
	g, _ := env.Preset("urim")
	s, _ := g.ParsePosition("1,0,0,0,0,0/0,0,0,0,0,0 26-9 S 60")
	fmt.Println(s.Terminal(), s.Reason(), s.FinalStores(), s.Winner(), s.MatchPoints(), s.Rewards(env.RewardMatchPoints))
	// Output:
	// true no_legal_move [27 9] 0 [2 0] [1 -1]
}
