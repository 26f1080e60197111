package leadin

// The same lead-ins in the other languages tutorials are written in: a page
// in Russian introduces its output with "увидим", one in Spanish with
// "verás" or "la salida". Each list is a handful of phrases a page uses in
// the sentence before a block; they are matched anywhere in that sentence,
// like the English ones. Go's \b knows only ASCII letters, so a word that
// ends in another letter (verás, увидим) is written without a closing \b,
// and words of scripts without spaces (Japanese, Chinese) need none.
//
// Languages: es, pt, fr, de, it, nl, pl, tr, vi, id, ru, uk, ja, zh, ko.

// otherShould says the command should print, show or return what follows
// ("it should return", "deve retornar", "debería mostrar"): output, even
// when its first word is a program's name (`ruby 3.1.2p20 ...`).
const otherShould = `` +
	// es, pt
	`\b(?:deber(?:í|i)a|debe|deve|deveria|dever(?:á|a))\s+(?:devolver|retornar|mostrar|imprimir|exibir|aparecer|ser)\b|` +
	// fr, it
	`\b(?:devrait|doit)\s+(?:retourner|renvoyer|afficher|imprimer|(?:ê|e)tre)\b|\b(?:dovrebbe|deve)\s+(?:restituire|mostrare|stampare|essere|apparire)\b|` +
	// de, nl
	`\bsollte\b[^.]{0,40}\b(?:zur(?:ü|u)ckgeben|ausgeben|anzeigen|erscheinen|lauten)\b|\bzou\b[^.]{0,40}\b(?:moeten tonen|moeten geven)\b`

// otherOutput says output follows ("you will see", "the output", "it
// prints", "the result").
const otherOutput = otherShould + `|` +
	// a label alone: "Sortie :", "Salida:", "Вывод:", "输出："
	`^\s*(?:sortie|salida|sa(?:í|i)da|ausgabe|uscita|risultato|r(?:é|e)sultat|resultado|ergebnis|wynik|(?:ç|c)(?:ı|i)kt(?:ı|i)|вывод|результат|` +
	`输出|輸出|出力|結果|结果|결과|출력|实行结果|执行结果|运行结果|実行結果)\s*[:：]\s*$|` +
	// es
	`\bver(?:á|a)s?\b|\bveremos\b|\bdeber(?:í|i)as? ver\b|\bobtendr(?:á|a)s?\b|\bobtenemos\b|\bla salida\b|\bimprimir(?:á|a)\b|\bmostrar(?:á|a)\b|` +
	// pt
	`\bvoc(?:ê|e) ver(?:á|a)\b|\bdever(?:á|ia) ver\b|\bteremos\b|\ba sa(?:í|i)da\b|\bexibir(?:á|a)\b|` +
	// fr
	`\bvous (?:verrez|devriez voir|obtiendrez|obtenez)\b|\bon obtient\b|\bnous obtenons\b|\bla sortie\b|\bdevrait afficher\b|\baffichera\b|` +
	// de
	`\bsehen sie\b|\bsiehst du\b|\bsollten sie\b[^.]{0,40}\bsehen\b|\berhalten sie\b|\bbekommen sie\b|\bbekommst du\b|\bdie ausgabe\b|\bausgegeben\b|` +
	// it
	`\bvedrai\b|\bvedremo\b|\bvedrete\b|\bdovresti vedere\b|\botterrai\b|\botterremo\b|\bstamper(?:à|a)\b|\bil risultato\b|\bpotresti ottenere\b|\botterresti\b|` +
	// nl
	`\bzie je\b|\bziet u\b|\bzul je\b[^.]{0,30}\bzien\b|\bkrijg je\b|\bkrijgt u\b|\bde uitvoer\b|` +
	// pl
	`\bzobaczysz\b|\bzobaczymy\b|\bpowiniene(?:ś|s) zobaczy|\botrzymasz\b|\botrzymamy\b|\bwypisze\b|\bwy(?:ś|s)wietli\b|` +
	// tr
	`\bg(?:ö|o)receksiniz\b|\bg(?:ö|o)rece(?:ğ|g)iz\b|\bg(?:ö|o)rmelisiniz\b|(?:ç|c)(?:ı|i)kt(?:ı|i)s(?:ı|i)|` +
	// vi
	`\bb(?:ạ|a)n s(?:ẽ|e) th(?:ấ|a)y|\bs(?:ẽ|e) th(?:ấ|a)y|\bk(?:ế|e)t qu(?:ả|a)|(?:đ|d)(?:ầ|a)u ra|\bin ra\b|` +
	// id
	`\bakan melihat\b|\bakan terlihat\b|\bkeluarannya\b|\bhasilnya\b|\bakan mencetak\b|\bakan menampilkan\b|` +
	// ru
	`увид(?:им|ите|ишь)|получ(?:им|ите|ишь)|вывед(?:ет|ется)|выводит|вывод |результат|напечата|` +
	// uk
	`побач(?:имо|ите|иш)|отрима(?:ємо|єте|єш)|виведе|виводить|вивід|` +
	// ja
	`出力|表示され|と表示|結果は|次のようにな|画面に|` +
	// zh
	`输出|輸出|结果|結果|会看到|會看到|将看到|可以看到|打印出|显示如下|` +
	// ko
	`출력|결과|표시됩|볼 수 있`

// otherTolerant says the output shown is only an example ("something
// like", "approximately", "roughly").
const otherTolerant = `` +
	`\baproximadamente\b|\balgo (?:as(?:í|i)|como|parecido)|\balgo semelhante\b|\bquelque chose comme\b|(?:^|\s)(?:à|a) peu pr(?:è|e)s\b|\benviron\b|` +
	`\betwa\b|\bungef(?:ä|a)hr\b|\bso (?:ähnlich|aehnlich)\b|\bqualcosa (?:come|del genere|di simile)\b|\bsimile a\b|\bsimilar a\b|\bsemelhante a\b|\bsemblable (?:à|a)\b|\bcirca\b|\bzoiets als\b|\bongeveer\b|` +
	`\bmniej wi(?:ę|e)cej\b|\bco(?:ś|s) w rodzaju\b|\bpodobn|\byakla(?:ş|s)(?:ı|i)k\b|\bbenzer\b|t(?:ươ|uo)ng t(?:ự|u)|\bkira-kira\b|\bkurang lebih\b|` +
	`примерно|приблизно|что-то вроде|щось на зразок|のような出力|ような結果|类似|類似|大致|大概|비슷한|` +
	// "could look like": the output shown is one possible.
	`\bressembl|\bpourrait (?:(?:ê|e)tre|afficher|donner)\b|\bpodr(?:í|i)a (?:verse|ser|mostrar|parecer)\b|\bpoderia (?:ser|parecer|mostrar)\b|` +
	`\bpotrebbe (?:essere|apparire|sembrare|somigliare)\b|\bk(?:ö|o)nnte (?:so |etwa )?(?:aussehen|lauten)\b|\bsieht (?:etwa|ungef(?:ä|a)hr) so aus\b|` +
	`\bmo(?:ż|z)e wygl(?:ą|a)da(?:ć|c)\b|может выглядеть|може виглядати`

// otherDiffers says the reader's output may differ from the one shown.
const otherDiffers = `` +
	`\bpuede(?:n)? (?:variar|ser diferente|cambiar)\b|\bpode(?:m)? (?:variar|ser diferente)\b|\bpeu(?:t|vent) (?:varier|(?:ê|e)tre diff(?:é|e)rent)|` +
	`\bkann (?:abweichen|variieren|anders aussehen)\b|\bk(?:ö|o)nnen (?:abweichen|variieren)\b|\bpu(?:ò|o) (?:variare|essere diverso)|\bkan (?:verschillen|afwijken)\b|` +
	`\bmo(?:ż|z)e si(?:ę|e) r(?:ó|o)(?:ż|z)ni|farkl(?:ı|i) olabilir|\bc(?:ó|o) th(?:ể|e) kh(?:á|a)c|\bmungkin berbeda\b|` +
	`может отличаться|могут отличаться|може відрізнятися|можуть відрізнятися|異なる場合|可能会不同|可能不同|可能有所不同|다를 수`

// otherRun asks to run the block ("run", "type", "execute").
const otherRun = `` +
	`\bejecut[ae]\b|\bescrib[ae]\b|\bteclea\b|\bexecut[ae]\b|\bdigite\b|\brode\b|\bex(?:é|e)cutez\b|\blancez\b|\btapez\b|\bsaisissez\b|` +
	`\bf(?:ü|u)hren sie\b|\bgeben sie\b[^.]{0,40}\bein\b|\btippen sie\b|\bstarten sie\b|\besegui\b|\beseguite\b|\blancia\b|\bdigita\b|` +
	`\bvoer\b[^.]{0,40}\buit\b|\btyp\b|\buruchom\b|\bwpisz\b|\bwykonaj\b|(?:ç|c)al(?:ı|i)(?:ş|s)t(?:ı|i)r(?:ı|i)n|\byaz(?:ı|i)n\b|` +
	`\bch(?:ạ|a)y\b|\bg(?:õ|o)\b|\bjalankan\b|\bketik\b|` +
	`выполни|запусти|введите|наберите|виконайте|запустіть|введіть|実行|入力して|运行|執行|执行|输入|실행|입력`

// otherCommand names commands or the terminal in other languages: with
// lines that read as commands, the block is commands ("solo es necesario
// ejecutar los siguientes comandos:").
const otherCommand = `\b(?:comandos?|commandes?|befehle?|comandi|kommandos?|polecenia|konsole)\b|команд|コマンド|命令|명령`

// otherFail says the command fails, on purpose.
const otherFail = `` +
	`\bfallar(?:á|a)\b|\bfalhar(?:á|a)\b|\bvai falhar\b|(?:^|\s)(?:é|e)chouera\b|\bva (?:é|e)chouer\b|\bwird fehlschlagen\b|\bschl(?:ä|a)gt fehl\b|` +
	`\bfallir(?:à|a)\b|\bzal mislukken\b|\bsi nie powiedzie\b|\bzako(?:ń|n)czy si(?:ę|e) b(?:łę|le)dem\b|` +
	`\brestituir(?:à|a) un errore\b|\bdar(?:à|a) (?:un )?errore\b|\bdar(?:á|a) (?:un )?error\b|\bdevolver(?:á|a) un error\b|\bdar(?:á|a) (?:um )?erro\b|` +
	`\bretornar(?:á|a) um erro\b|\brenverra une erreur\b|\bdonnera une erreur\b|\bprovoquera une erreur\b|\b(?:gibt|liefert) einen fehler\b|` +
	`завершится с ошибкой|выдаст ошибку|вернёт ошибку|завершиться з помилкою|видасть помилку|エラーになります|エラーが発生します|失敗します|失敗すること|会失败|会报错|會失敗|실패합니다|실패하는|오류가 발생합니다`

// otherAsksWhatHappens: the page asks its reader what a command does, to
// try it and explain ("what happens?", "que se passe-t-il ?").
const otherAsksWhatHappens = `` +
	`que se passe-t-il|qu'observez-vous|expliquez|commentez|(?:à|a) votre avis|` +
	`qu(?:é|e) (?:pasa|sucede|ocurre)|expli(?:ca|que)|coment[ae]|o que acontece|` +
	`was passiert|erkl(?:ä|a)ren sie|erkl(?:ä|a)re|cosa succede|spiega|commenta|` +
	`co si(?:ę|e) stanie|wyja(?:ś|s)nij|` +
	`что произойд|что происходит|объясните|объясни|що станеться|поясніть|` +
	`何が起こ|どうなる|説明して|会发生什么|发生了什么|解释一下|어떻게 되|무슨 일이|설명해`
