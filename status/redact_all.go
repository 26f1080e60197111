package status

import "reflect"

// RedactAll applies Redact to every string v holds, in place: the exported
// fields of structs, the elements of slices and arrays, the values of maps,
// followed through pointers and interfaces. It is how what a container
// reports (commands, their output, a Mentor's answers) loses its credentials
// before anything keeps it: the inbox, the state, the logs' copy. v must be
// a pointer (or a map) for the change to be seen.
func RedactAll(v any, secrets ...string) {
	redactValue(reflect.ValueOf(v), secrets)
}

func redactValue(v reflect.Value, secrets []string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			redactValue(v.Elem(), secrets)
		}
	case reflect.String:
		if v.CanSet() {
			if s := v.String(); s != "" {
				if r := Redact(s, secrets...); r != s {
					v.SetString(r)
				}
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				redactValue(v.Field(i), secrets)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return // bytes, not text
		}
		for i := range v.Len() {
			redactValue(v.Index(i), secrets)
		}
	case reflect.Map:
		redactMap(v, secrets)
	}
}

// redactMap replaces each value that holds a credential: map values cannot
// be changed in place, so each is copied, redacted and set again.
func redactMap(v reflect.Value, secrets []string) {
	if v.IsNil() {
		return
	}
	iter := v.MapRange()
	for iter.Next() {
		val := reflect.New(iter.Value().Type()).Elem()
		val.Set(iter.Value())
		redactValue(val, secrets)
		if !reflect.DeepEqual(val.Interface(), iter.Value().Interface()) {
			v.SetMapIndex(iter.Key(), val)
		}
	}
}
